// The product page on a phone: a bar with "Add to cart · $price" stays at the bottom of the screen while the buy box
// (the price, the size buttons and the add button) is wholly out of view. Picking a size or colour swaps only the buy box
// (htmx), so the observer is attached again to the new one.
(function () {
  "use strict";
  var observer = null;

  function watch() {
    var box = document.getElementById("buy-box");
    var bar = box && box.querySelector("[data-sticky-buy]");
    if (observer) observer.disconnect();
    if (!box || !bar || !("IntersectionObserver" in window)) return;
    // the whole buy box, not only its button: on arrival the price and sizes are in view and the bar stays away
    observer = new IntersectionObserver(function (entries) {
      bar.classList.toggle("is-shown", !entries[0].isIntersecting);
    });
    observer.observe(box);
  }

  document.addEventListener("DOMContentLoaded", watch);
  document.addEventListener("htmx:afterSettle", watch);
})();
