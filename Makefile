# The kernel workbook: the front door. The work is done by vm/*.sh.
#
#   make start [LAB=name]         the first command: build, boot lab 0 (or
#                                 LAB), run its steps and say where you are
#   make lab [LAB=name] [RUN=1]   build and boot a lab (default: the first)
#   make gdb [LAB=name]           attach gdb to that lab's running VM
#   make postmortem [LAB=name] [TOOL=drgn|crash]  open the last dump of a
#                                 guest that panicked, hung or timed out
#   make drgn [LAB=name] [TOOL=drgn|crash]  the same on a snapshot of that
#                                 lab's running VM, which goes on
#                                 (SCRIPT=labs/name/lab.drgn: run that
#                                 script on it instead)
#   make check [LAB=name]         every test, or one lab (solution passes,
#                                 skeleton fails; in a student repository:
#                                 the skeleton builds, boots and fails)
#   make check-fast               the harness's tests that need no kernel
#                                 (seconds)
#   make kernel                   the workbook kernel, in $(WB_CACHE)
#   make skeletons [LAB=name]     regenerate the students' files (edited
#                                 copies are kept aside)
#   make diff LAB=name            your work, as a patch against the skeleton
#   make lab-patch LAB=name       (authors) edit a lab's kernel patch in a
#                                 git tree, then write it back
#   make new-lab NAME=name [CHAPTER=nn]  (authors) the scaffold of a new
#                                 lab, which passes make check as it is
#   make labs                     list the labs
#   make book [EDITION=instructor] [FORMAT=html|single|pdf]
#   make bench                    measure the pipeline on this machine
#   make grade SUBMISSIONS=dir [LABS="a b"] [SHARD=i/N] [OUT=dir] [JOBS=n]
#                                 (instructors) grade a class with the
#                                 course's own checkers
#   make soak [LAB="a b"] [N=10]  each lab's check N times in a row
#                                 (every lab, or those named): passes,
#                                 median and worst time
#                                 (in a student repository: your files)
#   make student-repo OUT=dir     (instructors) the repository to hand out:
#                                 the course without its solutions
#
#   Settings (the book's "Writing a lab" lists every one):
#   ACCEL=tcg|kvm|auto            the accelerator (auto: KVM only after a
#                                 probe boot shows it works here)
#   WB_PAUSED=1                   make lab starts the guest paused, for
#                                 make gdb to break before the kernel boots
#   VARIANT=student|solution|skeleton  the files a run builds (authors)
#   SANITIZE=1                    make lab, check, grade and soak on the
#                                 kernel with KASAN too (a kernel of its own)
#   WB_CACHE=dir                  where the kernel, builds and runs live

SHELL := /bin/sh
LAB ?=
EDITION ?= student
FORMAT ?= html
export RUN VARIANT ACCEL WB_CACHE SUBMISSIONS LABS SHARD OUT JOBS TOOL BATCH SANITIZE
export WB_ROOT := $(CURDIR)

.PHONY: all setup start kernel lab gdb postmortem drgn check check-fast grade soak labs skeletons diff lab-patch new-lab book bench student-repo help

all: help

help:
	@sed -n 's/^#   //p' Makefile

# Installs the Debian packages that are missing (as root), or says which:
# every lab's, and those of vm/packages' "## for LAB" groups that the
# target needs (SETUP, set per target below; make start needs none).
setup:
	@vm/setup.sh $(SETUP)

lab: SETUP = $(LAB)
check soak: SETUP = $(if $(LAB),$(LAB),--all)

kernel: setup
	@vm/kernel.sh

start: setup
	@WB_PROGRESS=1 vm/lab.sh "$(LAB)" run

lab: setup
	@vm/lab.sh "$(LAB)"

gdb:
	@vm/gdb.sh "$(LAB)"

postmortem:
	@vm/postmortem.sh $(LAB)

drgn:
	@vm/postmortem.sh --live "$(LAB)"

# The harness's own tests that need no kernel tree, kernel or VM.
check-fast:
	@tests/run.sh --fast

check: setup
ifeq ($(LAB),)
	@tests/run.sh
else
	@tests/run.sh --lab "$(LAB)"
endif

grade: setup
	@vm/grade.sh

soak: setup
	@tests/soak.sh $(LAB)

labs:
	@vm/lab.sh --list

skeletons:
	@vm/skel.sh --regenerate $(LAB)

diff:
	@vm/skel.sh --diff "$(LAB)"

lab-patch:
	@vm/labpatch.sh "$(LAB)"

new-lab:
	@vm/newlab.sh "$(NAME)" $(CHAPTER)

# The book needs only Sphinx, graphviz, matplotlib and the extracted tree
# (vm/book.sh and docs/book-print.sh say what is missing), not setup.
book:
ifeq ($(FORMAT),html)
	@vm/book.sh "$(EDITION)"
else
	@docs/book-print.sh "$(FORMAT)" "$(EDITION)"
endif

bench: setup
	@vm/bench.sh

student-repo: setup
	@vm/studentrepo.sh "$(OUT)"
