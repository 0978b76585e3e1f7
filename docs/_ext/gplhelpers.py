# SPDX-License-Identifier: GPL-2.0
"""The ``gpl-only-helpers`` directive: a table of the BPF helpers that only
GPL-compatible programs may call, read from the kernel tree at build time.

A helper is GPL-only when the ``struct bpf_func_proto`` that describes it
sets ``.gpl_only = true``. The directive walks the C files of the tree given
by the ``kerneldoc_srctree`` setting (or ``$WB_KSRC``), keeps the files that
mention ``bpf_func_proto`` at all, and looks for such initialisers with a
regular expression. Usage::

    .. gpl-only-helpers::
"""

import os
import re

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

__version__ = "1.0"

logger = logging.getLogger(__name__)

# Where helpers are defined; arch/ and tools/ hold none in 6.1.
SCAN_DIRS = ("kernel", "net", "drivers", "security")

# A top-level initialiser: "[static] [const] struct bpf_func_proto NAME = {"
# up to the "};" that closes it at the start of a line.
PROTO_RE = re.compile(
    r"\bstruct\s+bpf_func_proto\s+(\w+)\s*=\s*\{(.*?)^\}\s*;",
    re.S | re.M)
GPL_RE = re.compile(r"\.gpl_only\s*=\s*true\b")
FUNC_RE = re.compile(r"\.func\s*=\s*&?\s*(\w+)")


def find_gpl_only_protos(srctree):
    """Return the GPL-only prototypes of the tree, sorted by file and line,
    as (function, proto, relative path, line) tuples, and the files that
    hold them."""
    rows = []
    files = []
    for top in SCAN_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(srctree, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith(".c"):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    with open(path, "rb") as f:
                        data = f.read()
                except OSError:
                    continue
                if b"bpf_func_proto" not in data:
                    continue
                text = data.decode("utf-8", "replace")
                found = False
                for m in PROTO_RE.finditer(text):
                    body = m.group(2)
                    if not GPL_RE.search(body):
                        continue
                    func = FUNC_RE.search(body)
                    line = text.count("\n", 0, m.start()) + 1
                    rows.append((func.group(1) if func else "(none)",
                                 m.group(1),
                                 os.path.relpath(path, srctree), line))
                    found = True
                if found:
                    files.append(path)
    return rows, files


def literal_cell(text):
    entry = nodes.entry()
    para = nodes.paragraph()
    para += nodes.literal(text, text)
    entry += para
    return entry


class GplOnlyHelpers(SphinxDirective):
    """Directive that emits the table of GPL-only helper prototypes."""

    has_content = False
    required_arguments = 0
    optional_arguments = 0

    def run(self):
        srctree = (getattr(self.config, "kerneldoc_srctree", None)
                   or os.environ.get("WB_KSRC"))
        if not srctree or not os.path.isdir(os.path.join(srctree, "kernel")):
            logger.warning("gpl-only-helpers: no kernel tree at %r", srctree,
                           location=self.get_location())
            return []

        rows, files = find_gpl_only_protos(srctree)
        for path in files:
            self.env.note_dependency(path)
        if not rows:
            logger.warning("gpl-only-helpers: no GPL-only bpf_func_proto "
                           "found under %s", srctree,
                           location=self.get_location())
            return []

        funcs = {r[0] for r in rows}
        summary = nodes.paragraph()
        summary += nodes.Text(
            "Generated from the tree when the book was built: %d "
            "prototypes with " % len(rows))
        summary += nodes.literal(".gpl_only = true", ".gpl_only = true")
        summary += nodes.Text(
            ", for %d distinct functions, in %d files."
            % (len(funcs), len(files)))

        table = nodes.table(classes=["gpl-only-helpers"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (35, 40, 25):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        group += head
        hrow = nodes.row()
        for title in ("Helper function (.func)", "Prototype",
                      "Defined in"):
            entry = nodes.entry()
            entry += nodes.paragraph(text=title)
            hrow += entry
        head += hrow
        body = nodes.tbody()
        group += body
        for func, proto, path, line in rows:
            row = nodes.row()
            row += literal_cell(func)
            row += literal_cell(proto)
            row += literal_cell("%s:%d" % (path, line))
            body += row
        return [summary, table]


def setup(app):
    # kerneldoc_srctree is registered by the tree's kerneldoc extension,
    # which conf.py loads before this one.
    app.add_directive("gpl-only-helpers", GplOnlyHelpers)
    return {
        "version": __version__,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
