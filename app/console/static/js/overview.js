// The overview's chart: uPlot (vendored) drawn from the page's own table of numbers (#traffic),
// so the numbers stay readable without script and the chart needs no inline data.
(function () {
  "use strict";
  var SERIES = [["Accepted", "#0b5cad"], ["Delivered", "#1a7f37"], ["Bounced", "#b3261e"], ["Failed", "#8250df"]];
  function draw() {
    var holder = document.getElementById("traffic-chart");
    var table = holder && document.getElementById(holder.getAttribute("data-table"));
    if (!holder || !table || typeof uPlot === "undefined") { return; }
    var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) { return th.textContent.trim(); });
    var rows = table.querySelectorAll("tbody tr");
    if (!rows.length) { return; }
    var data = [[]].concat(SERIES.map(function () { return []; }));
    Array.prototype.forEach.call(rows, function (row) {
      var cells = row.querySelectorAll("td");
      data[0].push(Date.parse(cells[0].getAttribute("data-at")) / 1000);
      SERIES.forEach(function (serie, index) { data[index + 1].push(Number(cells[heads.indexOf(serie[0])].textContent)); });
    });
    var options = {
      width: Math.max(holder.clientWidth, 280), height: 260,
      series: [{}].concat(SERIES.map(function (serie) { return {label: serie[0], stroke: serie[1], width: 2}; })),
      axes: [{}, {}],
    };
    holder.textContent = "";
    new uPlot(options, data, holder);
  }
  document.addEventListener("DOMContentLoaded", draw);
})();
