// Every failed htmx request says so where the shopper is looking (a failed add-to-cart, an expired session,
// a filter the server refused, no connection), instead of silently leaving stale content.
(function () {
  "use strict";

  function textOfPage(html) {
    // Our error pages (and re-rendered forms) carry their explanation in .error-page or an .alert.
    const doc = new DOMParser().parseFromString(html, "text/html");
    const alert = doc.querySelector(".alert--error, .field-error");
    if (alert && alert.textContent.trim()) return alert.textContent.trim();
    const page = doc.querySelector(".error-page");
    if (page) {
      const title = page.querySelector("h1");
      const para = page.querySelector("h1 + p");
      return [title && title.textContent.trim(), para && para.textContent.trim()].filter(Boolean).join(": ");
    }
    return "";
  }

  function messageFor(xhr) {
    if (!xhr || xhr.status === 0) return "We could not reach the shop. Check your connection and try again.";
    const type = xhr.getResponseHeader("Content-Type") || "";
    let text = "";
    if (type.indexOf("application/json") === 0) {
      try { text = (JSON.parse(xhr.responseText).error || {}).message || ""; } catch (e) { text = ""; }
    } else if (xhr.responseText) {
      text = textOfPage(xhr.responseText);
    }
    if (text) return text;
    if (xhr.status === 429) return "Too many tries in a short while. Please wait a minute and try again.";
    if (xhr.status >= 500) return "Something went wrong on our side. Please try again in a moment.";
    return "That did not work. Please try again.";
  }

  function anchorFor(elt) {
    // Next to the form or control the shopper used (above a whole group marked data-errors-here, such as the size
    // buttons, rather than between them); a fixed notice when that element is gone.
    const form = elt && elt.closest ? elt.closest("form, [data-errors-here]") : null;
    const anchor = form || elt;
    return anchor && document.body.contains(anchor) ? anchor : null;
  }

  function show(elt, text) {
    const anchor = anchorFor(elt);
    let box = anchor && anchor.previousElementSibling && anchor.previousElementSibling.classList.contains("htmx-error")
      ? anchor.previousElementSibling : null;
    if (!box) {
      box = document.createElement("p");
      box.className = "alert alert--error htmx-error";
      box.setAttribute("role", "alert");
      if (anchor) anchor.parentNode.insertBefore(box, anchor);
      else { box.classList.add("htmx-error--floating"); document.body.appendChild(box); }
    }
    box.textContent = text;
    const rect = box.getBoundingClientRect();
    if (rect.top < 0 || rect.bottom > window.innerHeight) box.scrollIntoView({ block: "center" });
    if (!anchor) setTimeout(function () { box.remove(); }, 8000);
  }

  function ownsErrors(elt) {
    return elt && elt.closest && elt.closest("[data-own-errors]");
  }

  function onFailure(event) {
    const elt = event.detail.elt;
    if (ownsErrors(elt)) return;
    show(elt, messageFor(event.detail.xhr));
  }

  document.addEventListener("htmx:responseError", onFailure);
  document.addEventListener("htmx:sendError", onFailure);
  document.addEventListener("htmx:timeout", onFailure);
  document.addEventListener("htmx:afterRequest", function (event) {
    // A later success clears the old message next to the same form.
    if (!event.detail.successful) return;
    const anchor = anchorFor(event.detail.elt);
    const box = anchor && anchor.previousElementSibling;
    if (box && box.classList.contains("htmx-error")) box.remove();
  });
})();
