# Internal kernel changes: folios. A module walks a file's page cache
# folio by folio (tmpfs huge=always and huge=never, ramfs, a sparse
# file) and lists what cc_platform_has() answers for each cc_attr.
CHAPTER := 07
TITLE := Folios in the page cache, and what cc_platform_has() answers
TIMEOUT := 120
FILES := folio_walk.c:module
