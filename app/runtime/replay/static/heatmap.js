/* A page's clicks over the page as a visitor saw it (docs/runtime.md, "The viewer"): the latest
   recording's first full snapshot, rebuilt by rrweb's Replayer in its script-less inner frame and
   stretched to the page's whole height, with a canvas over it; each click cell (percent of the
   page's width and height, as the pixel measured them) drawn as a glow by its count. */
(function () {
  "use strict";
  var main = document.querySelector("main"), stage = document.getElementById("stage");
  var clicks = JSON.parse(main.getAttribute("data-clicks") || "[]");
  var most = clicks.reduce(function (top, cell) { return Math.max(top, cell[2]); }, 1);

  function draw(box, width, height) {
    var canvas = document.createElement("canvas");
    canvas.className = "heat";
    canvas.width = width;
    canvas.height = height;
    var pen = canvas.getContext("2d"), radius = Math.max(14, width / 60);
    clicks.forEach(function (cell) {
      var x = cell[0] / 100 * width, y = cell[1] / 100 * height, weight = 0.35 + 0.65 * cell[2] / most;
      var glow = pen.createRadialGradient(x, y, 0, x, y, radius);
      glow.addColorStop(0, "rgba(220, 20, 20, " + weight + ")");
      glow.addColorStop(0.5, "rgba(255, 140, 0, " + weight * 0.6 + ")");
      glow.addColorStop(1, "rgba(255, 200, 0, 0)");
      pen.fillStyle = glow;
      pen.fillRect(x - radius, y - radius, radius * 2, radius * 2);
    });
    box.appendChild(canvas);
    var scale = Math.min(1, stage.clientWidth / width);
    box.style.transform = "scale(" + scale + ")";
    stage.style.height = Math.ceil(height * scale) + "px";
    window.addEventListener("resize", function () {
      var again = Math.min(1, stage.clientWidth / width);
      box.style.transform = "scale(" + again + ")";
      stage.style.height = Math.ceil(height * again) + "px";
    });
    document.body.setAttribute("data-state", "drawn");
    document.body.setAttribute("data-cells", String(clicks.length));
  }
  function blank() {
    var box = document.createElement("div");
    box.className = "blank";
    box.style.width = "1280px";
    box.style.height = "1600px";
    stage.appendChild(box);
    draw(box, 1280, 1600);
  }
  if (main.getAttribute("data-recorded") !== "yes") { blank(); return; }
  fetch(main.getAttribute("data-events"), { credentials: "omit", referrerPolicy: "no-referrer" })
    .then(function (answer) { if (!answer.ok) throw new Error("not loaded"); return answer.json(); })
    .then(function (body) {
      var events = body.Events || [];
      if (events.length < 2) { blank(); return; }
      var replayer = new window.rrweb.Replayer(events, { root: stage, showWarning: false, mouseTail: false });
      replayer.pause(replayer.getMetaData().totalTime);
      var wrapper = stage.querySelector(".replayer-wrapper"), frame = wrapper.querySelector("iframe");
      var tries = 0;
      /* The snapshot is drawn at the recorded viewport, a moment after pause(); the clicks are
         percentages of the whole page, so the frame is stretched to the page's height once built. */
      (function measure() {
        var doc = frame.contentDocument, body = doc && doc.body;
        if ((!body || !body.children.length) && tries++ < 40) { setTimeout(measure, 50); return; }
        var width = frame.offsetWidth || 1280;
        var height = Math.max(doc ? doc.documentElement.scrollHeight : 0, body ? body.scrollHeight : 0, frame.offsetHeight);
        frame.style.height = height + "px";
        draw(wrapper, width, height);
      })();
    })["catch"](function () { blank(); });
})();
