// Receipt page: pointing at (or focusing) a value lights its source line in the text view, the value's characters
// in that line and its box on the photo. The server marks the value the address names (?field=) the same way,
// so without JavaScript the page still shows where that one came from.
(function () {
  "use strict";

  var LIT = { block: "block--lit", box: "source-box--lit", field: "field--lit" };
  var current = null;

  function sourceOf(elt) {
    return elt && elt.closest ? elt.closest("[data-cite-blocks]") : null;
  }

  function blockIds(source) {
    return (source.getAttribute("data-cite-blocks") || "").split(" ").filter(Boolean);
  }

  function byData(name, id) {
    return document.querySelectorAll("[data-" + name + '="' + id.replace(/"/g, "") + '"]');
  }

  function markSpan(block, span) {
    // Wrap the value's characters in a <mark>, unless the server already did (the cited value).
    var text = block.querySelector(".receipt-line__text");
    if (!text || !span || text.querySelector("mark")) return;
    var parts = span.split(",").map(Number);
    var whole = text.textContent;
    if (!(parts[1] > parts[0]) || parts[0] < 0 || parts[1] > whole.length) return;
    var mark = document.createElement("mark");
    mark.className = "span-lit";
    mark.textContent = whole.slice(parts[0], parts[1]);
    text.textContent = "";
    text.append(whole.slice(0, parts[0]), mark, whole.slice(parts[1]));
  }

  function unmarkSpan(block) {
    var text = block.querySelector(".receipt-line__text");
    var mark = text && text.querySelector("mark.span-lit");
    if (mark) text.textContent = text.textContent;
  }

  function keepInView(block) {
    // Scroll the text view (not the page) so the line shows next to the value being pointed at.
    var box = block.closest(".receipt-lines");
    if (!box || box.scrollHeight <= box.clientHeight) return;
    var top = block.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + block.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }

  function boxInView(box) {
    // A long photo scrolls inside its column: bring the value's box into it (the page itself stays put).
    var column = box.closest(".receipt-document");
    if (!column || column.scrollHeight <= column.clientHeight) return;
    var boxRect = box.getBoundingClientRect();
    var columnRect = column.getBoundingClientRect();
    if (boxRect.top < columnRect.top || boxRect.bottom > columnRect.bottom) {
      column.scrollTop += boxRect.top - columnRect.top - column.clientHeight / 3;
    }
  }

  function light(source) {
    if (source === current) return;
    dim();
    current = source;
    source.classList.add(LIT.field);
    blockIds(source).forEach(function (id, index) {
      byData("block", id).forEach(function (block) {
        block.classList.add(LIT.block);
        if (index === 0) { markSpan(block, source.getAttribute("data-cite-span")); keepInView(block); }
      });
      byData("box", id).forEach(function (box) {
        box.classList.add(LIT.box);
        if (index === 0) boxInView(box);
      });
    });
  }

  function dim() {
    if (!current) return;
    current.classList.remove(LIT.field);
    document.querySelectorAll("." + LIT.block).forEach(function (block) {
      block.classList.remove(LIT.block);
      unmarkSpan(block);
    });
    document.querySelectorAll("." + LIT.box).forEach(function (box) { box.classList.remove(LIT.box); });
    current = null;
  }

  function onEnter(event) {
    var source = sourceOf(event.target);
    if (source) light(source);
  }

  function onLeave(event) {
    var source = sourceOf(event.target);
    if (!source || source !== current) return;
    if (event.relatedTarget && source.contains(event.relatedTarget)) return;
    if (event.type === "mouseout" && source.contains(document.activeElement)) return;  // still focused there
    dim();
  }

  function showCited() {
    var cited = document.getElementById("cited");
    if (cited && !location.hash) cited.scrollIntoView({ block: "center" });
    var line = document.querySelector(".block--cited");
    if (line) keepInView(line);
  }

  document.addEventListener("mouseover", onEnter);
  document.addEventListener("focusin", onEnter);
  document.addEventListener("mouseout", onLeave);
  document.addEventListener("focusout", onLeave);
  document.addEventListener("htmx:afterSwap", function () { current = null; var line = document.querySelector(".block--cited"); if (line) keepInView(line); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showCited);
  else showCited();
})();
