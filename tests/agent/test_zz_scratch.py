import os
from insightshop.agent import chat
from insightshop.services import cart
from insightshop.services.actors import Actor
from insightshop.services.shop_vocabulary import invalidate


def test_scratch(demo_catalog):
    invalidate()
    for convo in [m.split(" || ") for m in open("/tmp/hs_msgs.txt").read().splitlines() if m.strip()]:
        actor = Actor(guest_id="scratch-" + str(abs(hash(convo[0]))))
        conversation = None
        for message in convo:
            turn = chat.chat_turn(actor, message, conversation)
            conversation = turn["conversation_id"]
            print("\n>>", message, "\n  calls:", [(c["name"], c["arguments"], c["outcome"]) for c in turn["tool_calls"]],
                  "\n  reply:", turn["reply"][:400], "\n  cards:", [c["type"] for c in turn["cards"]])
        print("  CART:", [(ln.product.name, ln.product.category, ln.variant.color, ln.variant.size, ln.item.quantity) for ln in cart.get_cart(actor).lines])
