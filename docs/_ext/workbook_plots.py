# SPDX-License-Identifier: GPL-2.0
"""``.. data-plot:: NAME``: a figure drawn with matplotlib when the book
is built, from the tables of real runs that the repository keeps (the
same tables the book prints), so that a figure never disagrees with its
table::

    .. data-plot:: bloom-fp
       :alt: what the figure shows, for a reader who cannot see it

       The caption.

NAME is one of PLOTS below. The figure is an SVG written to
``_build/plots/`` of the book's folder and shown like any figure.
"""

import os
import re

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

__version__ = "1.0"

logger = logging.getLogger(__name__)


def list_tables(path):
    """The rows of every list-table of a reST file, each row a list of
    cell texts."""
    tables, rows, row = [], None, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(".. list-table::"):
                rows = []
                tables.append(rows)
                continue
            if rows is None:
                continue
            m = re.match(r"^   \* - (.*)$", line)
            if m:
                row = [m.group(1).strip()]
                rows.append(row)
                continue
            m = re.match(r"^     - (.*)$", line)
            if m and row is not None:
                row.append(m.group(1).strip())
                continue
            if line and not line.startswith("   "):
                rows, row = None, None
    return tables


def bloom_fp(root, plt):
    """False-positive rate against k for each n: the lab's run over the
    theory, log scale."""
    path = os.path.join(root, "labs", "bpf-bloom", "README.rst")
    table = next(t for t in list_tables(path) if t and t[0][:2] == ["k", "m (bits)"])
    ns = [int(h.split("=")[1]) for h in table[0][2:]]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for j, n in enumerate(ns):
        ks, theory, measured, judged = [], [], [], []
        for row in table[1:]:
            t, m = row[2 + j].replace("\\*", "").split("/")
            ks.append(int(row[0]))
            theory.append(float(t))
            measured.append(float(m))
            judged.append("\\*" not in row[2 + j])
        line, = ax.plot(ks, theory, "-", label="n = %d, theory" % n)
        c = line.get_color()
        ax.plot([k for k, m, ok in zip(ks, measured, judged) if ok and m > 0],
                [m for k, m, ok in zip(ks, measured, judged) if ok and m > 0],
                "o", color=c, label="n = %d, measured" % n)
        ax.plot([k for k, m, ok in zip(ks, measured, judged) if not ok and m > 0],
                [m for k, m, ok in zip(ks, measured, judged) if not ok and m > 0],
                "o", mfc="none", color=c)
    ax.set_yscale("log")
    ax.set_xlabel("hash functions k (filter sized for 10000 values)")
    ax.set_ylabel("false positives (%)")
    ax.set_xticks(range(1, 16))
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, ncol=2, loc="lower left")
    return fig, path


def bloom_lookup(root, plt):
    """Hash map time over Bloom filter time, present and absent values."""
    path = os.path.join(root, "labs", "bpf-bloom", "bench.rst")
    table = list_tables(path)[0]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for col, label, marker in ((1, "values present", "o"), (2, "values absent", "s")):
        ks, med, lo, hi = [], [], [], []
        for row in table[1:]:
            m = re.match(r"([\d.]+) \(([\d.]+)-([\d.]+)\)", row[col])
            ks.append(int(row[0]))
            med.append(float(m.group(1)))
            lo.append(float(m.group(1)) - float(m.group(2)))
            hi.append(float(m.group(3)) - float(m.group(1)))
        ax.errorbar(ks, med, yerr=[lo, hi], marker=marker, capsize=3, label=label)
    ax.axhline(1.0, color="grey", lw=1, ls="--")
    ax.text(15.2, 1.0, "as fast", va="center", fontsize=7, color="grey")
    ax.set_xlabel("hash functions k")
    ax.set_ylabel("hash map time / filter time")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    return fig, path


def egress_cost(root, plt):
    """Each configuration's rate over the baseline's, median with the
    smallest and largest run; the baseline's own spread shaded."""
    path = os.path.join(root, "labs", "nf-egress", "bench.rst")
    table = list_tables(path)[0]
    head = table[0]
    i_med, i_min, i_max = head.index("ratio (median)"), head.index("min"), head.index("max")
    rows = table[1:]
    base = rows[0]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.axvspan(float(base[i_min]), float(base[i_max]), color="tab:blue", alpha=0.12,
               label="baseline against itself: smallest to largest")
    for y, row in enumerate(rows):
        med, lo, hi = float(row[i_med]), float(row[i_min]), float(row[i_max])
        ax.errorbar([med], [y], xerr=[[med - lo], [hi - med]], fmt="o", capsize=3,
                    color="tab:blue" if y == 0 else "tab:red")
    ax.axvline(0.9, color="grey", ls=":", lw=1)
    ax.axvline(1.1, color="grey", ls=":", lw=1)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r[0] for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("packet rate / baseline (dotted: 10 % either way)")
    ax.legend(fontsize=7, loc="center right")
    fig.tight_layout()
    return fig, path


PLOTS = {
    "bloom-fp": bloom_fp,
    "bloom-lookup": bloom_lookup,
    "egress-cost": egress_cost,
}


class DataPlot(SphinxDirective):
    required_arguments = 1
    has_content = True
    option_spec = {"alt": directives.unchanged_required}

    def run(self):
        name = self.arguments[0]
        if name not in PLOTS:
            logger.warning("data-plot: no plot %r (known: %s)", name, ", ".join(PLOTS),
                           location=self.get_location())
            return []
        if "alt" not in self.options:
            logger.warning("data-plot %s: no :alt: text", name, location=self.get_location())
        try:
            import matplotlib
            matplotlib.use("svg")
            matplotlib.rcParams["svg.hashsalt"] = "workbook"
            matplotlib.rcParams["svg.fonttype"] = "none"
            import matplotlib.pyplot as plt
        except ImportError:
            logger.warning("data-plot: matplotlib is missing "
                           "(apt-get install python3-matplotlib)",
                           location=self.get_location())
            return []
        root = self.env.srcdir
        try:
            fig, data = PLOTS[name](root, plt)
        except (OSError, StopIteration, ValueError, IndexError, AttributeError) as err:
            logger.warning("data-plot %s: cannot read its data: %s", name, err,
                           location=self.get_location())
            return []
        self.env.note_dependency(data)
        self.env.note_dependency(__file__)
        outdir = os.path.join(root, "_build", "plots")
        os.makedirs(outdir, exist_ok=True)
        svg = os.path.join(outdir, name + ".svg")
        fig.savefig(svg, metadata={"Date": None})
        plt.close(fig)
        text = [".. figure:: /_build/plots/%s.svg" % name,
                "   :alt: %s" % self.options.get("alt", name),
                "   :width: 100%", ""]
        text += ["   " + l for l in self.content]
        text += ["", "   Drawn when the book is built, from ``%s``." % os.path.relpath(data, root)]
        node = nodes.container()
        self.state.nested_parse(StringList(text, self.get_source_info()[0]), self.content_offset, node)
        return node.children


def setup(app):
    app.add_directive("data-plot", DataPlot)
    return {"version": __version__, "parallel_read_safe": True}
