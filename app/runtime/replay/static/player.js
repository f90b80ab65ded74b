/* The player of one recorded session (docs/runtime.md, "The viewer"). rrweb's Replayer rebuilds the
   recorded page in its own inner frame, sandboxed without scripts; this page's CSP lets nothing in
   it load from another host. The body's data-state tells where it is: loading, ready, playing,
   paused, finished, empty, failed. */
(function () {
  "use strict";
  var main = document.querySelector("main"), stage = document.getElementById("stage");
  var status = document.getElementById("status"), play = document.getElementById("play");
  var seek = document.getElementById("seek"), clock = document.getElementById("clock");
  var speed = document.getElementById("speed");
  var replayer = null, total = 0, timer = null;

  function state(name, words) {
    document.body.setAttribute("data-state", name);
    if (words !== undefined) status.textContent = words;
  }
  function minutes(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
  }
  function load(url, events) {
    return fetch(url, { credentials: "omit", referrerPolicy: "no-referrer" }).then(function (answer) {
      if (!answer.ok) throw new Error(answer.status === 401 ? "This link has expired; open the page in the console again." : "The recording could not be loaded.");
      return answer.json();
    }).then(function (body) {
      events = events.concat(body.Events || []);
      if (body.HasMore) return load(main.getAttribute("data-events") + "&cursor=" + body.NextCursor, events);
      return events;
    });
  }
  function fit() {
    var wrapper = stage.querySelector(".replayer-wrapper"), frame = wrapper && wrapper.querySelector("iframe");
    if (!frame) return;
    var width = frame.offsetWidth || 1, height = frame.offsetHeight || 1;
    /* the whole recorded viewport in sight: as wide as the stage, no taller than the frame left below the controls */
    var room = Math.max(120, window.innerHeight - stage.getBoundingClientRect().top - 12);
    var scale = Math.min(1, stage.clientWidth / width, room / height);
    wrapper.style.transform = "scale(" + scale + ")";
    stage.style.height = Math.ceil(height * scale) + "px";
  }
  function tick(ended) {
    /* the replayer's clock runs on a little past the last event; the position never passes the end */
    var now = ended === true ? total : Math.min(total, replayer ? replayer.getCurrentTime() : 0);
    seek.value = String(now);
    clock.textContent = minutes(now) + " / " + minutes(total);
    document.body.setAttribute("data-played", String(Math.round(now)));
  }
  function start(from) {
    replayer.play(from);
    play.textContent = "Pause";
    state("playing", "Playing.");
    if (!timer) timer = setInterval(function () { if (document.body.getAttribute("data-state") === "playing") tick(); }, 250);
  }
  function pause() {
    replayer.pause();
    play.textContent = "Play";
    state("paused", "Paused.");
    tick();
  }

  load(main.getAttribute("data-events"), []).then(function (events) {
    if (events.length < 2) { state("empty", "Nothing was recorded in this session that can be played."); return; }
    replayer = new window.rrweb.Replayer(events, {
      root: stage, skipInactive: true, showWarning: false, mouseTail: false, UNSAFE_replayCanvas: false
    });
    replayer.on("resize", fit);
    replayer.on("finish", function () {
      play.textContent = "Play again";
      tick(true);
      state("finished", "The recording has ended.");
    });
    total = replayer.getMetaData().totalTime;
    seek.max = String(total);
    play.disabled = seek.disabled = false;
    replayer.pause(0);
    fit();
    tick();
    state("ready", "Ready: " + minutes(total) + " recorded.");
    window.addEventListener("resize", fit);
  })["catch"](function (error) { state("failed", error.message); });

  play.addEventListener("click", function () {
    var playing = document.body.getAttribute("data-state") === "playing";
    if (playing) pause(); else start(document.body.getAttribute("data-state") === "finished" ? 0 : replayer.getCurrentTime());
  });
  seek.addEventListener("input", function () {
    var at = Number(seek.value);
    if (document.body.getAttribute("data-state") === "playing") { replayer.play(at); tick(); return; }
    replayer.pause(at);
    play.textContent = "Play";
    state("paused", "Paused at " + minutes(at) + ".");
    tick();
  });
  speed.addEventListener("change", function () { if (replayer) replayer.setConfig({ speed: Number(speed.value) }); });
})();
