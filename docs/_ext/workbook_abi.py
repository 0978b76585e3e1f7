# SPDX-License-Identifier: GPL-2.0
"""The ``workbook-abi`` directive: ABI files that live in this repository,
rendered by the kernel tree's own scripts/get_abi.pl.

The tree's ``kernel-abi`` directive only reads directories below
``$srctree/Documentation``. This one takes a directory relative to the
current document (or to the book's root when it starts with ``/``), runs
``get_abi.pl rest`` on it from the book's root and parses the reST it
prints. Give it one level directory at a time, as the kernel does, so that
the script's ``.. LINENO`` markers name the right files::

    .. workbook-abi:: ABI/testing

Anything get_abi.pl prints on stderr (a duplicated entry, a malformed
field) becomes a Sphinx warning, so ``sphinx-build -W`` fails on it.
"""

import os
import re
import subprocess

from docutils import nodes
from docutils.statemachine import ViewList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

__version__ = "1.0"

logger = logging.getLogger(__name__)

LINENO_RE = re.compile(r"^\.\. LINENO (\S+)#([0-9]+)$")


class WorkbookAbi(SphinxDirective):
    """Directive that renders a directory of ABI files."""

    has_content = False
    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = False

    def run(self):
        srctree = (getattr(self.config, "kerneldoc_srctree", None)
                   or os.environ.get("WB_KSRC") or "")
        script = os.path.join(srctree, "scripts", "get_abi.pl")
        if not os.path.isfile(script):
            logger.warning("workbook-abi: %s not found", script,
                           location=self.get_location())
            return []

        rel, absdir = self.env.relfn2path(self.arguments[0])
        if not os.path.isdir(absdir):
            logger.warning("workbook-abi: no directory %s", rel,
                           location=self.get_location())
            return []

        srcdir = self.env.srcdir
        try:
            proc = subprocess.run(
                ["perl", script, "rest", "--enable-lineno", "--dir", rel],
                cwd=srcdir, capture_output=True, text=True, check=False)
        except OSError as err:
            logger.warning("workbook-abi: cannot run get_abi.pl: %s", err,
                           location=self.get_location())
            return []
        if proc.returncode != 0 or proc.stderr.strip():
            logger.warning("workbook-abi: get_abi.pl (status %d): %s",
                           proc.returncode, proc.stderr.strip(),
                           location=self.get_location())
            if proc.returncode != 0:
                return []

        for dirpath, _, filenames in os.walk(absdir):
            for name in filenames:
                self.env.note_dependency(os.path.join(dirpath, name))

        content = ViewList()
        source, lineno = os.path.join(srcdir, rel), 0
        for line in proc.stdout.splitlines():
            m = LINENO_RE.match(line)
            if m:
                source = os.path.normpath(os.path.join(srcdir, m.group(1)))
                lineno = int(m.group(2)) - 1
                continue
            content.append(line, source, lineno)

        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, content, node)
        return node.children


def setup(app):
    # kerneldoc_srctree is registered by the tree's kerneldoc extension,
    # which conf.py loads before this one.
    app.add_directive("workbook-abi", WorkbookAbi)
    return {
        "version": __version__,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
