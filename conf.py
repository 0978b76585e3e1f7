# Sphinx configuration of the kernel workbook. Built by vm/book.sh:
#   make book                      student edition
#   make book EDITION=instructor   with the worked solutions
#
# API text comes from the extracted 6.1 tree through the tree's own Sphinx
# extensions (kernel-doc, kernel-abi); vm/book.sh extracts the tree first
# and passes its path in WB_KSRC.
import os
import sys

ksrc = os.environ.get("WB_KSRC")
if not ksrc:
    cache = os.environ.get("WB_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
        "kernel-workbook")
    ksrc = os.path.join(cache, "kernel", "linux-source-6.1")
sys.path.insert(0, os.path.join(ksrc, "Documentation", "sphinx"))
# kernel-include expands environment variables in its path.
os.environ["WB_KSRC"] = ksrc
# A kernel-doc warning (a comment that names a parameter the function no
# longer has) makes kernel-doc fail, and so the build: -W alone would not
# see it, kernel-doc only prints it.
os.environ["KDOC_WERROR"] = "1"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "docs", "_ext"))

project = "Kernel workbook: the 5.16 merge window"
author = "The kernel workbook authors"
copyright = "2026, " + author
root_doc = "index"
extensions = ["sphinx.ext.graphviz", "kerneldoc", "kernel_abi", "kernel_include"]
extensions += ["gplhelpers", "workbook_abi", "workbook_book", "workbook_plots"]
kerneldoc_bin = os.path.join(ksrc, "scripts", "kernel-doc")
kerneldoc_srctree = ksrc
exclude_patterns = [
    "_build", "README.md", "labs", "solutions", "kernel", "vm", "tests",
    ".ci", "docs/ABI", "docs/generated", "docs/_static", "docs/_templates",
]
# sphinx-build -t instructor: the instructor edition. The student edition
# does not even read the instructor's pages.
instructor = tags.has("instructor")  # noqa: F821 (given by Sphinx)
if not instructor:
    exclude_patterns += ["docs/authoring.rst", "docs/grading.rst"]
html_theme = "sphinx_rtd_theme"
html_title = project + (" (instructor edition)" if instructor else "")
templates_path = ["docs/_templates"]
html_context = {"wb_edition": "instructor" if instructor else "student"}
html_copy_source = False
highlight_language = "none"
graphviz_output_format = "svg"

# The book's own style sheet (tables that wrap, code that wraps).
html_static_path = ["docs/_static"]
html_css_files = ["workbook.css"]
