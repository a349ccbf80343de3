// The catalog's filters on a phone or a narrow tablet: a drawer. It is the page's <details class="filters"> shown
// as a full-height sheet by the stylesheet, so without JavaScript it still opens and its buttons submit the form.
// Here it behaves as a dialog: focus moves in when it opens and back to its button when it closes, Escape and a
// click beside the sheet close it, Tab stays inside, and "Show N results" (or ×) closes it over the results htmx
// has already brought in while the shopper ticked filters. No inline scripts (CSP); listeners are on document, so
// they survive htmx swapping the facets and the footer inside the sheet.
(function () {
  "use strict";

  const drawerMode = window.matchMedia("(max-width: 900px)");

  function drawer() {
    return document.getElementById("filters");
  }

  function isOpenDrawer(details) {
    return Boolean(details && details.open && drawerMode.matches);
  }

  function sheetOf(details) {
    return details.querySelector(".filters-sheet");
  }

  function focusables(sheet) {
    const selector = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select, summary";
    return Array.prototype.filter.call(sheet.querySelectorAll(selector), function (element) {
      // skips the contents of closed facet groups
      return element.checkVisibility ? element.checkVisibility() : element.getClientRects().length > 0;
    });
  }

  function markAsDialog(details, on) {
    const sheet = sheetOf(details);
    if (on) {
      sheet.setAttribute("role", "dialog");
      sheet.setAttribute("aria-modal", "true");
      sheet.setAttribute("aria-labelledby", "filters-title");
    } else {
      sheet.removeAttribute("role");
      sheet.removeAttribute("aria-modal");
      sheet.removeAttribute("aria-labelledby");
    }
  }

  function close(details) {
    details.open = false;
    markAsDialog(details, false);
    details.querySelector("summary").focus();
  }

  document.addEventListener("toggle", function (event) {
    const details = event.target;
    if (details !== drawer()) return;
    if (isOpenDrawer(details)) {
      markAsDialog(details, true);
      details.querySelector(".filters-close").focus();
    } else if (!details.open) {
      markAsDialog(details, false);
      const active = document.activeElement;
      if (!active || active === document.body || sheetOf(details).contains(active)) {
        details.querySelector("summary").focus();
      }
    }
  }, true);  // toggle does not bubble

  document.addEventListener("click", function (event) {
    const details = drawer();
    if (!isOpenDrawer(details)) return;
    const closer = event.target.closest("[data-close-filters]");
    if (closer && details.contains(closer)) {
      // The filters already apply as they change; the submit is only for pages without JavaScript.
      event.preventDefault();
      close(details);  // the results are right below its button, where focus returns
    } else if (!sheetOf(details).contains(event.target)) {
      // A click on the dimmed page beside the sheet closes it instead of following a link behind it.
      event.preventDefault();
      event.stopPropagation();
      close(details);
    }
  }, true);

  document.addEventListener("keydown", function (event) {
    const details = drawer();
    if (!isOpenDrawer(details)) return;
    if (event.key === "Escape") {
      event.preventDefault();
      close(details);
    } else if (event.key === "Tab") {
      const items = focusables(sheetOf(details));
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      const inside = sheetOf(details).contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    // "Clear all" disappears once nothing is left to clear: keep the keyboard inside the sheet.
    const details = drawer();
    if (isOpenDrawer(details) && !sheetOf(details).contains(document.activeElement)) {
      const show = document.getElementById("show-results");
      if (show) show.focus({ preventScroll: true });
    }
  });

  drawerMode.addEventListener("change", function () {
    // Wider than a phone the sheet is the sidebar again; narrower, an open one becomes the dialog.
    const details = drawer();
    if (details) markAsDialog(details, isOpenDrawer(details));
  });
})();
