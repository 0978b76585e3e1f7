# Lab 0: the whole pipeline on one small exercise.
CHAPTER := front
TITLE := Reading the taint mask: a /proc file, a module and a decoder
TIMEOUT := 120
FILES := fs/proc/tainted.c:tree taintmod.c:module taintdecode.c:prog
