// SPDX-License-Identifier: GPL-2.0
// For tests/run/plot.sh, which adds it to a copy of a page (the page itself
// has no script): what the text looks like once laid out in headless
// Chromium.  Every SVG text's box against its SVG's viewport (a box past it
// is cut), texts of one SVG that overlap, and where the page's sections and
// the forests' rows are, with their estimates' colours, as JSON in a pre
// element of id textcheck.
(function () {
  var out = { clipped: [], overlaps: [], texts: 0, sections: [], rows: [] };
  var svgs = document.querySelectorAll('svg');
  for (var s = 0; s < svgs.length; s++) {
    var svg = svgs[s], vb = svg.viewBox.baseVal;
    var w = vb && vb.width ? vb.width : svg.width.baseVal.value;
    var h = vb && vb.height ? vb.height : svg.height.baseVal.value;
    var texts = svg.querySelectorAll('text'), boxes = [];
    for (var i = 0; i < texts.length; i++) {
      var b = texts[i].getBBox(), t = texts[i].textContent;
      out.texts++;
      if (!t.trim()) continue;
      if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > w + 0.5 || b.y + b.height > h + 0.5)
        out.clipped.push({ svg: svg.getAttribute('class'), text: t, x: b.x, y: b.y, w: b.width, h: b.height, vw: w, vh: h });
      boxes.push({ t: t, x: b.x, y: b.y, w: b.width, h: b.height });
    }
    for (var i = 0; i < boxes.length; i++)
      for (var j = i + 1; j < boxes.length; j++) {
        var a = boxes[i], c = boxes[j];
        var dx = Math.min(a.x + a.w, c.x + c.w) - Math.max(a.x, c.x);
        var dy = Math.min(a.y + a.h, c.y + c.h) - Math.max(a.y, c.y);
        if (dx > 1 && dy > 1)
          out.overlaps.push({ svg: svg.getAttribute('class'), a: a.t, b: c.t });
      }
  }
  var secs = document.querySelectorAll('section');
  for (var i = 0; i < secs.length; i++)
    out.sections.push({ cls: secs[i].className, top: secs[i].getBoundingClientRect().top + window.scrollY,
                        h2: (secs[i].querySelector('h2') || {}).textContent });
  var rows = document.querySelectorAll('svg.forest g.change, svg.forest g.audit');
  for (var i = 0; i < rows.length; i++) {
    var name = rows[i].querySelector('text.name'), dot = rows[i].querySelector('circle.estimate');
    var style = dot ? getComputedStyle(dot) : null;
    out.rows.push({ cls: rows[i].getAttribute('class'), name: name ? name.textContent : '',
                    top: rows[i].getBoundingClientRect().top + window.scrollY,
                    label: (rows[i].querySelector('text.label') || {}).textContent,
                    fill: style ? style.fill : '', stroke: style ? style.stroke : '' });
  }
  var pre = document.createElement('pre');
  pre.id = 'textcheck';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
