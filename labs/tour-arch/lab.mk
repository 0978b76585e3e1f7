# Architecture tour: the chapter's items on Arm, MIPS, PA-RISC and
# RISC-V, each in a guest of its own architecture (GUESTS: guests.sh
# builds and boots them on the host; there is no x86 VM).
CHAPTER := 01
TITLE := Tour: Arm, MIPS and RISC-V guests built from the workbook's tree
# Each guest's boot, steps and checks (the builds are not counted).
TIMEOUT := 300
KIND := tour
FILES :=
GUESTS := guests.sh
