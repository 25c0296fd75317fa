// Evaluated in a page of `companion web` by tests/web/test_browser.py through the DevTools
// protocol (tests/web/devtools.py; never a script of the page): what the browser laid out,
// in CSS pixels, as the expression's value.
(function () {
  "use strict";
  var root = document.documentElement;

  function box(el) {
    var r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
  }

  function texts(scope, selector) {
    return Array.prototype.map.call(scope.querySelectorAll(selector), function (t) {
      return { text: t.textContent, box: box(t) };
    });
  }

  var out = { viewport: root.clientWidth, innerWidth: window.innerWidth, scrollWidth: root.scrollWidth,
              bodyScrollWidth: document.body.scrollWidth, tables: [], graphs: [], pieces: {} };

  document.querySelectorAll("table").forEach(function (table) {
    var holder = table.parentElement;
    out.tables.push({ cls: table.className, box: box(table), holder: box(holder),
                      holderClass: holder.className, overflowX: getComputedStyle(holder).overflowX,
                      holderScrollWidth: holder.scrollWidth, holderClientWidth: holder.clientWidth });
  });

  document.querySelectorAll("svg.board g.piece").forEach(function (piece) {
    var circle = piece.querySelector("circle");
    out.pieces[piece.getAttribute("data-player")] = getComputedStyle(circle).fill;
  });

  document.querySelectorAll("svg.chances").forEach(function (svg) {
    var graph = { box: box(svg), viewBox: svg.getAttribute("viewBox"), lines: [], keys: [],
                  yTicks: texts(svg, "g.axis.y text.tick"), xTicks: texts(svg, "g.axis.x text.tick"),
                  xTitle: texts(svg, "g.axis.x text.title"), texts: texts(svg, "text") };
    svg.querySelectorAll("polyline.line").forEach(function (line) {
      graph.lines.push({ player: line.getAttribute("data-player"), stroke: line.getAttribute("stroke"),
                         computed: getComputedStyle(line).stroke, box: box(line) });
    });
    svg.querySelectorAll("g.legend g.key").forEach(function (key) {
      graph.keys.push({ player: key.getAttribute("data-player"), text: key.textContent,
                        computed: getComputedStyle(key.querySelector("line.swatch")).stroke });
    });
    out.graphs.push(graph);
  });

  return out;
})()
