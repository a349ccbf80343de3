"""order integrity: checkout fingerprints, so a reused Idempotency-Key with another body is refused

Revision ID: 0007_order_integrity
Revises: 0005_conversations
Create Date: 2026-11-23 09:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0007_order_integrity'
down_revision = '0006_credential_versions'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('checkout_fingerprint', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_column('checkout_fingerprint')
