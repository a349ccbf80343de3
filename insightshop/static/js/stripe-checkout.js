// Mounts Stripe's Payment Element on the payment page and confirms the PaymentIntent.
// Loaded only when the shop runs with STRIPE_SECRET_KEY; the webhook marks the order paid.
(function () {
  const form = document.getElementById("stripe-payment");
  if (!form || typeof Stripe === "undefined") return;
  const stripe = Stripe(form.dataset.publishableKey);
  const elements = stripe.elements({ clientSecret: form.dataset.clientSecret });
  elements.create("payment").mount("#payment-element");
  const message = document.getElementById("payment-message");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: form.dataset.returnUrl } });
    if (error) {
      message.textContent = error.message;
      message.hidden = false;
    }
  });
})();
