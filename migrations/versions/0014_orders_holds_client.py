"""orders remember which client placed them (a hashed address), so guest stock holds are capped per client

Revision ID: 0014_orders_holds_client
Revises: 0013_limits_store
Create Date: 2026-11-28 19:00:00

"""
from alembic import op
import sqlalchemy as sa



# revision identifiers, used by Alembic.
revision = '0014_orders_holds_client'
down_revision = '0013_limits_store'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hold_client', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_orders_hold_client'), ['hold_client'], unique=False)


def downgrade():
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_orders_hold_client'))
        batch_op.drop_column('hold_client')
