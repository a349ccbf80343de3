"""rate-limit counters in the database, shared by every worker when there is no Redis

Revision ID: 0013_limits_store
Revises: 0012_receipt_files
Create Date: 2026-11-28 19:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0013_limits_store'
down_revision = '0012_receipt_files'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('rate_limit_counters',
    sa.Column('key', sa.String(length=255), nullable=False),
    sa.Column('count', sa.Integer(), nullable=False),
    sa.Column('expires_at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('key', name=op.f('pk_rate_limit_counters'))
    )
    with op.batch_alter_table('rate_limit_counters', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rate_limit_counters_expires_at'), ['expires_at'], unique=False)


def downgrade():
    with op.batch_alter_table('rate_limit_counters', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rate_limit_counters_expires_at'))
    op.drop_table('rate_limit_counters')
