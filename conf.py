# Sphinx configuration of the kernel workbook. Built by vm/book.sh:
#   make book                      student edition
#   make book EDITION=instructor   with the worked solutions
project = "Kernel workbook: the 5.16 merge window"
author = "The kernel workbook authors"
copyright = "2026, " + author
root_doc = "index"
extensions = ["sphinx.ext.graphviz"]
exclude_patterns = [
    "_build", "README.md", "labs", "solutions", "kernel", "vm", "tests",
    ".ci", "docs/README.rst",
]
html_theme = "sphinx_rtd_theme"
html_title = project
highlight_language = "none"
