# Lab 0: the whole pipeline on one small exercise.
CHAPTER := front
TITLE := Reading the taint mask: a /proc file, a module and a decoder
TIMEOUT := 120
# Points of the checker's eight results, in order: the steps the student
# writes (the refusal, the /proc/tainted lines, the decoder) weigh most.
POINTS := 1 2 1 1 2 3 1 3
FILES := fs/proc/tainted.c:tree taintmod.c:module taintdecode.c:prog
