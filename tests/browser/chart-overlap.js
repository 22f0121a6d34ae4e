// Measures every chart (svg.dpc) of the page and returns what collides, as sentences.
// Run by tests/it/chart_overlap.rs through WebDriver: the script body returns
// { charts, texts, marks, lines, problems }.
//
// What counts:
// - two text elements whose boxes (the font's ascent to descent) overlap;
// - a text element and a mark (bar, dot, square marker) whose boxes overlap;
// - a text element and a line (gridline, zero line, guide line, series line), measured
//   along the line itself, not its box; a tick's value and its own gridline (both in one
//   <g class="t">) are fine;
// - two markers (not bars) overlapping by more than a quarter of the smaller one, which
//   would hide a point;
// - text that sticks out of the chart's box.
// Overlaps of less than half a pixel are rounding, not collisions.
var TOLERANCE = 0.5;
var problems = [];
var counts = { charts: 0, texts: 0, marks: 0, lines: 0 };

function rect(r) {
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
}
function overlap(a, b) {
  var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > TOLERANCE && h > TOLERANCE ? w * h : 0;
}
// Liang-Barsky: does the segment a-b cross the rectangle r grown by pad?
function crosses(a, b, r, pad) {
  var x0 = r.left - pad, x1 = r.right + pad, y0 = r.top - pad, y1 = r.bottom + pad;
  if (x1 <= x0 || y1 <= y0) return false;
  var t0 = 0, t1 = 1, dx = b.x - a.x, dy = b.y - a.y;
  var p = [-dx, dx, -dy, dy], q = [a.x - x0, x1 - a.x, a.y - y0, y1 - a.y];
  for (var i = 0; i < 4; i++) {
    if (p[i] === 0) {
      if (q[i] <= 0) return false;
    } else {
      var t = q[i] / p[i];
      if (p[i] < 0) { if (t > t1) return false; if (t > t0) t0 = t; }
      else { if (t < t0) return false; if (t < t1) t1 = t; }
    }
  }
  return t0 < t1 || (dx === 0 && dy === 0);
}
function tickGroup(el) {
  var g = el.closest('g.t');
  return g || null;
}
function describe(item) {
  var el = item.el, tag = el.tagName.toLowerCase(), cls = el.getAttribute('class') || '';
  if (tag === 'text') return 'text "' + el.textContent.trim().slice(0, 50) + '"';
  if (tag === 'line') {
    return 'line.' + cls.replace(/ /g, '.') + ' (' + Math.round(item.a.x) + ',' + Math.round(item.a.y) + ')-(' +
      Math.round(item.b.x) + ',' + Math.round(item.b.y) + ')';
  }
  var title = el.querySelector('title');
  return tag + '.' + cls.replace(/ /g, '.') + (title ? ' "' + title.textContent + '"' : '');
}
function at(item) {
  var r = item.r || { left: Math.min(item.a.x, item.b.x), top: Math.min(item.a.y, item.b.y) };
  return ' at (' + Math.round(r.left) + ', ' + Math.round(r.top) + ')';
}

[].forEach.call(document.querySelectorAll('svg.dpc'), function (svg) {
  counts.charts++;
  var figure = svg.closest('figure');
  var chart = figure ? '#' + figure.id : 'svg';
  var box = svg.getBoundingClientRect();
  var texts = [].map.call(svg.querySelectorAll('text'), function (el) {
    return { el: el, r: rect(el.getBoundingClientRect()) };
  }).filter(function (t) { return t.r.right - t.r.left > 0 && t.el.textContent.trim() !== ''; });
  var marks = [].map.call(svg.querySelectorAll('rect:not(.bg), circle, path, polygon'), function (el) {
    return { el: el, r: rect(el.getBoundingClientRect()) };
  });
  var matrix = function (el) { return el.getScreenCTM(); };
  var lines = [].map.call(svg.querySelectorAll('line'), function (el) {
    var m = matrix(el), p = svg.createSVGPoint();
    p.x = el.x1.baseVal.value; p.y = el.y1.baseVal.value;
    var a = p.matrixTransform(m);
    p.x = el.x2.baseVal.value; p.y = el.y2.baseVal.value;
    var b = p.matrixTransform(m);
    var width = parseFloat(getComputedStyle(el).strokeWidth) || 1;
    return { el: el, a: { x: a.x, y: a.y }, b: { x: b.x, y: b.y }, width: width };
  });
  counts.texts += texts.length; counts.marks += marks.length; counts.lines += lines.length;
  function report(what, x, y) {
    problems.push(chart + ': ' + what + ': ' + describe(x) + at(x) + ' and ' + describe(y) + at(y));
  }
  for (var i = 0; i < texts.length; i++) {
    var t = texts[i];
    if (t.r.left < box.left - 1 || t.r.right > box.right + 1 || t.r.top < box.top - 1 || t.r.bottom > box.bottom + 1) {
      problems.push(chart + ': text outside the chart: ' + describe(t) + at(t) + ' (chart ' +
        Math.round(box.left) + '..' + Math.round(box.right) + ')');
    }
    for (var j = i + 1; j < texts.length; j++) {
      if (overlap(t.r, texts[j].r)) report('two labels overlap', t, texts[j]);
    }
    for (var k = 0; k < marks.length; k++) {
      if (overlap(t.r, marks[k].r)) report('a label overlaps a mark', t, marks[k]);
    }
    for (var l = 0; l < lines.length; l++) {
      var line = lines[l];
      if (tickGroup(line.el) && tickGroup(line.el) === tickGroup(t.el)) continue;
      if (crosses(line.a, line.b, t.r, line.width / 2 - TOLERANCE)) report('a line crosses a label', t, line);
    }
  }
  var markers = marks.filter(function (m) { return m.el.tagName.toLowerCase() === 'circle' || m.el.getAttribute('width') === '8'; });
  for (var m = 0; m < markers.length; m++) {
    for (var n = m + 1; n < markers.length; n++) {
      var a = markers[m].r, b = markers[n].r;
      var smaller = Math.min((a.right - a.left) * (a.bottom - a.top), (b.right - b.left) * (b.bottom - b.top));
      if (overlap(a, b) > smaller / 4) report('markers hide each other', markers[m], markers[n]);
    }
  }
});
return { charts: counts.charts, texts: counts.texts, marks: counts.marks, lines: counts.lines, problems: problems };
