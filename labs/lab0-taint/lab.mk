# Lab 0: the whole pipeline on one small exercise.
CHAPTER := front
TITLE := Reading the taint mask: a /proc file, a module and a decoder
TIMEOUT := 120
# check.sh gives the steps the student writes (the refusal, the
# /proc/tainted lines, the decoder) the most points (ktap_points).
FILES := fs/proc/tainted.c:tree taintmod.c:module taintdecode.c:prog
