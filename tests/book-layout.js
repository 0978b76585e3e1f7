// The book's layout, as a reader would check it: tests/t-30-book.sh puts
// this script at the end of every page it loads in headless Chromium.
// Once the page is laid out, it measures each table and each code block
// of the page's text against the column it sits in, and writes what it
// found into the page, for the test to read from the DOM Chromium dumps:
//
//   wb-layout: tables T blocks B overflowing N
//   wb-overflow: table|block WIDTHpx > COLUMNpx under "HEADING": TEXT...
//
// A table overflows when it is wider than its column, when the box around
// it scrolls sideways, or when one of its cells hides part of its text; a
// code block when it scrolls sideways or runs past the column.
(function () {
	function heading(el) {
		var s = el.closest("section, div.section");
		var h = s && s.querySelector("h1, h2, h3, h4, h5, h6");
		return h ? h.textContent.replace(/\s+/g, " ").replace(/\uf0c1|¶/g, "").trim() : "";
	}
	function text(el) {
		return el.textContent.replace(/\s+/g, " ").trim().slice(0, 60);
	}
	function check() {
		var main = document.querySelector("div[role=main]") || document.body;
		var column = main.getBoundingClientRect();
		var found = [], tables = 0, blocks = 0;
		function report(kind, el, width) {
			found.push("wb-overflow: " + kind + " " + Math.round(width) + "px > " +
				Math.round(column.width) + "px under \"" + heading(el) + "\": " + text(el));
		}
		main.querySelectorAll("table").forEach(function (t) {
			var r = t.getBoundingClientRect(), box = t.parentElement, wide = false;
			tables++;
			if (r.right > column.right + 1 || box.scrollWidth > box.clientWidth + 1)
				wide = true;
			t.querySelectorAll("td, th").forEach(function (c) {
				if (c.scrollWidth > c.clientWidth + 1)
					wide = true;
			});
			if (wide)
				report("table", t, Math.max(r.width, box.scrollWidth));
		});
		main.querySelectorAll("pre").forEach(function (p) {
			var r = p.getBoundingClientRect();
			blocks++;
			if (p.scrollWidth > p.clientWidth + 1 || r.right > column.right + 1)
				report("block", p, Math.max(r.width, p.scrollWidth));
		});
		var out = document.createElement("pre");
		out.id = "wb-layout";
		out.textContent = "wb-layout: tables " + tables + " blocks " + blocks +
			" overflowing " + found.length + "\n" + found.join("\n") + "\n";
		document.body.appendChild(out);
	}
	// The theme lays its tables out from a jQuery "ready" handler, which
	// jQuery 3 runs from a timer: measure a moment after the page loaded.
	function later() {
		setTimeout(check, 500);
	}
	if (document.readyState === "complete")
		later();
	else
		window.addEventListener("load", later);
})();
