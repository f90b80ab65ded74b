// The analytics area (app/console/analytics): the overview's chart, drawn with uPlot (vendored) from
// the page's own table of numbers (#visits), and the live view's EventSource on the console's relay of
// the runtime's stream. A static file: the console's CSP allows no inline script.
(function () {
  "use strict";
  var SERIES = [["Visitors", "#0b5cad"], ["Page views", "#1a7f37"], ["Clicks", "#8250df"]];

  function drawChart() {
    var holder = document.getElementById("visits-chart");
    var table = holder && document.getElementById(holder.getAttribute("data-table"));
    if (!holder || !table || typeof uPlot === "undefined") { return; }
    var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) { return th.textContent.trim(); });
    var rows = table.querySelectorAll("tbody tr");
    if (rows.length < 2) { return; }  // one day (today) is a number, not a line: the table says it
    var data = [[]].concat(SERIES.map(function () { return []; }));
    Array.prototype.forEach.call(rows, function (row) {
      var cells = row.querySelectorAll("td");
      data[0].push(Date.parse(cells[0].getAttribute("data-at")) / 1000);
      SERIES.forEach(function (serie, index) { data[index + 1].push(Number(cells[heads.indexOf(serie[0])].textContent)); });
    });
    var chart = null;
    // The axes in the page's own colours (light or dark), read when drawn; drawn again when the
    // scheme changes, since a canvas does not follow CSS.
    function build() {
      var style = getComputedStyle(holder);
      var ink = style.color, grid = style.getPropertyValue("--border").trim() || "#d0d7de";
      var options = {
        width: Math.max(holder.clientWidth, 280), height: 240,
        series: [{}].concat(SERIES.map(function (serie) { return {label: serie[0], stroke: serie[1], width: 2}; })),
        // One tick a day at most, named as the table names it (the UTC day), whatever the browser's zone.
        axes: [{space: 48, stroke: ink, grid: {stroke: grid}, ticks: {stroke: grid}, incrs: [86400, 2 * 86400, 7 * 86400, 14 * 86400],
                 values: function (self, ticks) { return ticks.map(function (tick) { return new Date(tick * 1000).toISOString().slice(5, 10); }); }},
               {stroke: ink, grid: {stroke: grid}, ticks: {stroke: grid},
                incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 50000, 100000]}],
        scales: {x: {time: true}},
      };
      if (chart) { chart.destroy(); }
      holder.textContent = "";
      chart = new uPlot(options, data, holder);
    }
    build();
    // A phone turned, a window narrowed: the chart follows its box (uPlot draws at a fixed width).
    var pending = null;
    window.addEventListener("resize", function () {
      clearTimeout(pending);
      pending = setTimeout(function () { chart.setSize({width: Math.max(holder.clientWidth, 280), height: 240}); }, 100);
    });
    if (window.matchMedia) {
      var scheme = window.matchMedia("(prefers-color-scheme: dark)");
      if (scheme.addEventListener) { scheme.addEventListener("change", build); }
    }
  }

  function cell(label, text) {
    var td = document.createElement("td");
    td.setAttribute("data-label", label);
    td.textContent = text;
    return td;
  }

  function followLive() {
    var root = document.getElementById("live");
    if (!root || typeof EventSource === "undefined") { return; }
    var state = document.getElementById("live-state");
    var refused = document.getElementById("live-refused");
    var retry = document.getElementById("live-retry");
    var table = document.getElementById("live-events");
    var body = table.querySelector("tbody");
    var keep = Number(table.getAttribute("data-keep")) || 20;
    var empty = document.getElementById("live-empty");
    var source = null;

    function say(text, on) {
      state.textContent = text;
      state.classList.toggle("on", !!on);
    }

    function open() {
      refused.hidden = true;
      retry.hidden = true;
      say("Connecting to the live stream…", false);
      source = new EventSource(root.getAttribute("data-stream"));
      source.addEventListener("open", function () { say("Live: new visits appear as they happen.", true); });
      source.addEventListener("visit", function (message) {
        var visit;
        try { visit = JSON.parse(message.data); } catch (error) { return; }
        var row = document.createElement("tr");
        var at = document.createElement("td");
        at.setAttribute("data-label", "When");
        var time = document.createElement("time");
        time.setAttribute("datetime", visit.At || "");
        time.textContent = (visit.At || "").slice(11, 19);
        at.appendChild(time);
        row.appendChild(at);
        row.appendChild(cell("Event", visit.Type || ""));
        row.appendChild(cell("Page", visit.Page || ""));
        row.appendChild(cell("Source", visit.Source || ""));
        row.appendChild(cell("Device", visit.Device || ""));
        row.appendChild(cell("Country", visit.Country || "–"));
        row.className = "fresh";
        body.insertBefore(row, body.firstChild);
        while (body.children.length > keep) { body.removeChild(body.lastChild); }
        empty.hidden = true;
        // The counts are the runtime's (distinct visitors of the last minutes): htmx reloads them.
        document.body.dispatchEvent(new CustomEvent("analytics-visit"));
      });
      // The runtime would not open a stream (too many open, session ended...): said, not retried.
      source.addEventListener("refused", function (message) {
        var refusal = {};
        try { refusal = JSON.parse(message.data); } catch (error) { refusal = {}; }
        source.close();
        say("Not live.", false);
        refused.textContent = refusal.Message || "The live view could not open.";
        refused.hidden = false;
        retry.hidden = false;
      });
      source.addEventListener("error", function () {
        if (source.readyState === EventSource.CLOSED) {
          say("Not live: the connection closed.", false);
          retry.hidden = false;
        } else {
          say("Reconnecting to the live stream…", false);
        }
      });
    }

    retry.addEventListener("click", function () {
      if (source) { source.close(); }
      open();
    });
    window.addEventListener("pagehide", function () { if (source) { source.close(); } });
    open();
  }

  document.addEventListener("DOMContentLoaded", function () {
    drawChart();
    followLive();
  });
})();
