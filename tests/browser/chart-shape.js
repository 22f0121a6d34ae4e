// Measures the shape of every chart (svg.dpc) of the page for tests/it/chart_corpus.rs.
// Returns one entry per chart, in page pixels:
// - plot: the top and bottom gridline (the value axis's ends);
// - drawn: how far the series reach: up, down, and across (paths by their geometry,
//   markers by their centres);
// - markers: how many point markers are drawn (not the legend's);
// - ticks: each label under the plot with the x its anchor stands at.
return [].map.call(document.querySelectorAll('svg.dpc'), function (svg) {
  var figure = svg.closest('figure');
  var grid = [].map.call(svg.querySelectorAll('g.t line'), function (l) {
    var r = l.getBoundingClientRect();
    return (r.top + r.bottom) / 2;
  });
  var drawn = { top: Infinity, bottom: -Infinity, left: Infinity, right: -Infinity };
  function take(left, top, right, bottom) {
    drawn.top = Math.min(drawn.top, top); drawn.bottom = Math.max(drawn.bottom, bottom);
    drawn.left = Math.min(drawn.left, left); drawn.right = Math.max(drawn.right, right);
  }
  [].forEach.call(svg.querySelectorAll('path'), function (p) {
    var r = p.getBoundingClientRect();
    take(r.left, r.top, r.right, r.bottom);
  });
  // Point markers carry their value in a <title>; the legend's do not.
  var markers = [].filter.call(svg.querySelectorAll('circle, rect[width="8"]'), function (m) {
    return m.querySelector('title');
  });
  [].forEach.call(markers, function (m) {
    var r = m.getBoundingClientRect(), x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    take(x, y, x, y);
  });
  var ticks = [].filter.call(svg.querySelectorAll('text.k'), function (t) {
    return !t.closest('g.t');
  }).map(function (t) {
    var r = t.getBoundingClientRect(), anchor = t.getAttribute('text-anchor') || 'start';
    var x = anchor === 'start' ? r.left : anchor === 'end' ? r.right : (r.left + r.right) / 2;
    return { label: t.textContent, x: x };
  });
  return {
    id: figure ? figure.id : '',
    plot: { top: Math.min.apply(null, grid), bottom: Math.max.apply(null, grid) },
    drawn: drawn,
    markers: markers.length,
    ticks: ticks
  };
});
