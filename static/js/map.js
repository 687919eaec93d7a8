// The map editor's taps: a tap on the map's SVG becomes a point in inches, which adds a terrain corner or
// chooses where a location, Base or army goes. (The map page itself is static/js/tactical_map.js.)
(function () {
  "use strict";
  var wrap = document.getElementById("map-wrap");
  if (!wrap) { return; }
  var width = parseFloat(wrap.dataset.width), height = parseFloat(wrap.dataset.height);
  var points = [];
  var NS = "http://www.w3.org/2000/svg";

  function inches(event) {
    var box = wrap.getBoundingClientRect();
    var x = (event.clientX - box.left) / box.width * width;
    var y = (event.clientY - box.top) / box.height * height;
    return [Math.round(x * 100) / 100, Math.round(y * 100) / 100];
  }

  function draw() {
    var overlay = document.getElementById("overlay");
    while (overlay.firstChild) { overlay.removeChild(overlay.firstChild); }
    if (points.length > 1) {
      var shape = document.createElementNS(NS, "polygon");
      shape.setAttribute("class", "drawing");
      shape.setAttribute("points", points.map(function (p) { return p.join(","); }).join(" "));
      overlay.appendChild(shape);
    }
    points.forEach(function (p) {
      var dot = document.createElementNS(NS, "circle");
      dot.setAttribute("cx", p[0]); dot.setAttribute("cy", p[1]); dot.setAttribute("r", "0.4");
      dot.setAttribute("class", "pick");
      overlay.appendChild(dot);
    });
  }

  function fill(point) {
    var picked = document.getElementById("picked");
    points.push(point);
    document.querySelectorAll(".points-field").forEach(function (f) { f.value = JSON.stringify(points); });
    document.querySelectorAll(".x-field").forEach(function (f) { f.value = point[0]; });
    document.querySelectorAll(".y-field").forEach(function (f) { f.value = point[1]; });
    if (picked) { picked.textContent = points.length + " point(s), last (" + point[0] + ", " + point[1] + ")"; }
    draw();
  }

  wrap.addEventListener("click", function (event) { fill(inches(event)); });
  var clear = document.getElementById("clear-points");
  if (clear) {
    clear.addEventListener("click", function () {
      points = [];
      document.querySelectorAll(".points-field").forEach(function (f) { f.value = ""; });
      document.getElementById("picked").textContent = "nothing yet";
      draw();
    });
  }
})();
