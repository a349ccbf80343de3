"""review integrity: guest identity per review, verified purchases

Revision ID: 0008_review_integrity
Revises: 0005_conversations
Create Date: 2026-11-23 09:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0008_review_integrity'
down_revision = '0007_order_integrity'
branch_labels = None
depends_on = None

PAID_STATUSES = "('paid', 'processing', 'shipped', 'delivered')"


def upgrade():
    with op.batch_alter_table('reviews', schema=None) as batch_op:
        batch_op.add_column(sa.Column('guest_id', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('is_verified_purchase', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.create_index(batch_op.f('ix_reviews_guest_id'), ['guest_id'], unique=False)
        batch_op.create_unique_constraint(batch_op.f('uq_reviews_product_id_guest_id'), ['product_id', 'guest_id'])

    # Existing reviews by users who bought the product are verified; older guest reviews cannot be tied to a
    # buyer and stay unverified (ratings are recomputed from verified reviews the next time they change).
    op.execute(sa.text(
        "UPDATE reviews SET is_verified_purchase = true WHERE user_id IS NOT NULL AND EXISTS ("
        " SELECT 1 FROM orders JOIN order_items ON order_items.order_id = orders.id"
        f" WHERE orders.user_id = reviews.user_id AND order_items.product_id = reviews.product_id"
        f" AND orders.status IN {PAID_STATUSES})"
    ))


def downgrade():
    with op.batch_alter_table('reviews', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_reviews_product_id_guest_id'), type_='unique')
        batch_op.drop_index(batch_op.f('ix_reviews_guest_id'))
        batch_op.drop_column('is_verified_purchase')
        batch_op.drop_column('guest_id')
