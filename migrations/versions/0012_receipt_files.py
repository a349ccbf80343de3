"""receipt files kept in the database, so every app server and worker reads them

Revision ID: 0012_receipt_files
Revises: 0011_audit_request_id
Create Date: 2026-11-24 08:40:00

"""
from alembic import op
import sqlalchemy as sa



# revision identifiers, used by Alembic.
revision = '0012_receipt_files'
down_revision = '0011_audit_request_id'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('receipt_files',
    sa.Column('stored_name', sa.String(length=64), nullable=False),
    sa.Column('content', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('stored_name', name=op.f('pk_receipt_files'))
    )


def downgrade():
    op.drop_table('receipt_files')
