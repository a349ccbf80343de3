"""audit log: the request id of the request that made each entry

Revision ID: 0011_audit_request_id
Revises: 0010_citations
Create Date: 2026-11-24 08:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0011_audit_request_id'
down_revision = '0010_citations'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.add_column(sa.Column('request_id', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_audit_log_request_id'), ['request_id'], unique=False)


def downgrade():
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_audit_log_request_id'))
        batch_op.drop_column('request_id')
