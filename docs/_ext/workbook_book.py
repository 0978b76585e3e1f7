# SPDX-License-Identifier: GPL-2.0
"""The book's own directives and checks.

``.. lab-page:: NAME``
    The whole page of one lab or tour: its ``labs/NAME/README.rst`` (whose
    title must be the ``TITLE`` of ``labs/NAME/lab.mk``, so that the lab
    has one title in the manifest, the README, ``make labs`` and the
    book), a short card under the title (the lab's name, its chapter, the
    commands that run it), and in the instructor edition only the worked
    solution, ``solutions/NAME/solution.rst``. The student edition never
    reads the solution, so none of it reaches that edition's files.

``.. readme-table:: TEXT``
    The first Markdown table after the line of README.md that holds TEXT,
    as a table of the book: README.md stays the one source of it.

``.. instructor-toctree::``
    A toctree in the instructor edition, nothing in the student edition
    (which does not build those pages at all).

``.. web-toctree::``
    A toctree in the HTML book, nothing in the one-page edition that is
    printed (built with ``-t print``).

Index entries: the first time a page names, in inline code, a function
(``name()``), a structure (``struct name``), a config option
(``CONFIG_NAME``), a file under ``/sys``, ``/proc`` or ``debugfs``, or a
make target (``make target``), the general index points there.

Once every page is read, a lab of ``labs/`` that has no page is a warning,
so ``sphinx-build -W`` fails on it.
"""

import os
import re

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.directives.other import TocTree
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.transforms import SphinxTransform

__version__ = "1.0"

logger = logging.getLogger(__name__)

CHAPTERS = {
    "front": ("chapters/00-front/index", "Front matter"),
    "01": ("chapters/01-architecture/index", "Architecture-specific"),
    "02": ("chapters/02-core-kernel/index", "Core kernel"),
    "03": ("chapters/03-filesystems-block/index", "Filesystems and block I/O"),
    "04": ("chapters/04-hardware/index", "Hardware support"),
    "05": ("chapters/05-networking/index", "Networking"),
    "06": ("chapters/06-security/index", "Security-related"),
    "07": ("chapters/07-internal/index", "Internal kernel changes"),
}


def manifest(path):
    """The variables of a lab.mk, as vm/lib.sh's wb_manifest reads them
    (the last assignment of each wins)."""
    found = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([A-Z_]+)\s*:?=\s*(.*)$", line.rstrip("\n"))
            if m:
                found[m.group(1)] = m.group(2).strip()
    return found


def is_instructor(env):
    return env.app.tags.has("instructor")


class LabPage(SphinxDirective):
    required_arguments = 1
    has_content = False

    def run(self):
        name = self.arguments[0]
        root = self.env.srcdir
        ldir = os.path.join(root, "labs", name)
        mk = os.path.join(ldir, "lab.mk")
        readme = os.path.join(ldir, "README.rst")
        for path in (mk, readme):
            if not os.path.isfile(path):
                logger.warning("lab-page: no %s", path, location=self.get_location())
                return []
            self.env.note_dependency(path)
        man = manifest(mk)
        title = man.get("TITLE", "")
        with open(readme, encoding="utf-8") as f:
            lines = f.read().splitlines()
        if len(lines) < 2 or lines[0].strip() != title or not re.fullmatch(r"=+", lines[1]):
            logger.warning("lab-page: the first line of labs/%s/README.rst must be the "
                           "title of its lab.mk, %r, underlined with '='; it is %r",
                           name, title, lines[0] if lines else "",
                           location=self.get_location())
        self.env.domaindata.setdefault("workbook", {}).setdefault("labs", {})[name] = self.env.docname
        chapter = CHAPTERS.get(man.get("CHAPTER", ""), None)
        tour = name.startswith("tour-")
        card = ["", ".. rst-class:: wb-lab-card", ""]
        card.append(":%s: ``%s`` (as ``make labs`` lists it)" % ("Tour" if tour else "Lab", name))
        if chapter:
            card.append(":Chapter: :doc:`/%s`" % chapter[0])
        card.append(":Boot it with a shell: ``make lab LAB=%s``" % name)
        if tour:
            card.append(":Run its steps and checks: ``make lab LAB=%s RUN=1`` (tours are not graded)" % name)
        else:
            card.append(":Run the steps and grade your files: ``make lab LAB=%s RUN=1``" % name)
            files = man.get("FILES", "").split()
            if files:
                card.append(":Your files (``FILES`` in ``lab.mk``): %s"
                            % ", ".join("``%s``" % f for f in files))
        card.append("")
        text = lines[:2] + card + lines[2:]
        source = readme
        solution = os.path.join(root, "solutions", name, "solution.rst")
        if is_instructor(self.env) and os.path.isfile(solution):
            self.env.note_dependency(solution)
            with open(solution, encoding="utf-8") as f:
                sol = f.read().splitlines()
            text += ["", ""] + sol
        # Inserted as an include would be: the README's title becomes the
        # page's, its sections the page's sections.
        self.state_machine.insert_input(StringList(text, source), source)
        return []


class ReadmeTable(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True
    has_content = False

    def run(self):
        path = os.path.join(self.env.srcdir, "README.md")
        self.env.note_dependency(path)
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        key = self.arguments[0]
        start = next((i for i, l in enumerate(lines) if key in l), None)
        if start is None:
            logger.warning("readme-table: %r is not in README.md", key, location=self.get_location())
            return []
        rows = []
        for l in lines[start + 1:]:
            if l.startswith("|"):
                cells = [c.strip() for c in l.strip().strip("|").split("|")]
                if all(re.fullmatch(r":?-+:?", c) for c in cells):
                    continue
                rows.append(cells)
            elif rows:
                break
        if not rows:
            logger.warning("readme-table: no table after %r in README.md", key,
                           location=self.get_location())
            return []
        rst = [".. list-table::", "   :header-rows: 1", ""]
        for row in rows:
            for k, cell in enumerate(row):
                # Markdown's `code` is reST's ``code``.
                cell = re.sub(r"`([^`]+)`", r"``\1``", cell)
                rst.append(("   * - " if k == 0 else "     - ") + cell)
        node = nodes.container()
        self.state.nested_parse(StringList(rst, path), 0, node)
        return node.children


class InstructorToctree(TocTree):
    def run(self):
        if not is_instructor(self.env):
            return []
        return super().run()


class WebToctree(TocTree):
    """A toctree of the HTML book only: the one-page edition that is
    printed (sphinx-build -t print) has no general index page."""

    def run(self):
        if self.env.app.tags.has("print"):
            return []
        return super().run()


# Inline code that names something a reader may look up.
INDEX_PATTERNS = [
    (re.compile(r"^([a-z_][a-z0-9_]{2,})\(\)$"), "%s() (function)"),
    (re.compile(r"^struct ([a-z_][a-z0-9_]+)$"), "struct %s"),
    (re.compile(r"^(CONFIG_[A-Z0-9_]+)$"), "%s (config option)"),
    (re.compile(r"^((?:/sys|/proc|/sys/kernel/debug)/[\w./<>-]+)$"), "%s (file)"),
    (re.compile(r"^make ([a-z][a-z-]+)\b.*$"), "make %s (make target)"),
]


class IndexLiterals(SphinxTransform):
    """Index entries for the inline code that names something; a
    transform, so that it runs before Sphinx collects the index entries
    of the page (on doctree-read)."""

    default_priority = 800

    def apply(self):
        index_literals(self.env, self.document)
        # Sphinx copies the static files only when it writes a page: a
        # change of the style sheet or the template rewrites them all.
        for f in ("docs/_static/workbook.css", "docs/_templates/layout.html"):
            self.env.note_dependency(os.path.join(self.env.srcdir, f))


def index_literals(env, doctree):
    seen = set()
    for lit in list(doctree.traverse(nodes.literal)):
        text = lit.astext().strip()
        for rx, fmt in INDEX_PATTERNS:
            m = rx.match(text)
            if not m:
                continue
            entry = fmt % m.group(1)
            if entry in seen:
                break
            seen.add(entry)
            para = lit.parent
            while para is not None and not isinstance(para, (nodes.paragraph, nodes.term, nodes.entry)):
                para = para.parent
            if para is None or para.parent is None:
                break
            tid = "index-%d" % env.new_serialno("index")
            target = nodes.target("", "", ids=[tid])
            inode = addnodes.index(entries=[("single", entry, tid, "", None)])
            idx = para.parent.index(para)
            para.parent.insert(idx, [inode, target])
            break


def check_labs(app, env):
    pages = env.domaindata.get("workbook", {}).get("labs", {})
    ldir = os.path.join(app.srcdir, "labs")
    for name in sorted(os.listdir(ldir)):
        if os.path.isfile(os.path.join(ldir, name, "lab.mk")) and name not in pages:
            logger.warning("lab %s has no page in the book (a page with "
                           "'.. lab-page:: %s' in the Labs part)", name, name)


def setup(app):
    app.add_directive("lab-page", LabPage)
    app.add_directive("readme-table", ReadmeTable)
    app.add_directive("instructor-toctree", InstructorToctree)
    app.add_directive("web-toctree", WebToctree)
    app.add_transform(IndexLiterals)
    app.connect("env-check-consistency", check_labs)
    return {"version": __version__, "parallel_read_safe": False}
