"""integrity flags, account states and the append-only operator audit log (issue #13)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 22:20:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

_PG_FUNCTION = """
CREATE FUNCTION audit_log_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only (R-OPER-4)';
END;
$$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    op.create_table(
        'integrity_flags',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=255), nullable=False),
        sa.Column('pattern', sa.String(length=32), nullable=False),
        sa.Column('players', sa.JSON(), nullable=False),
        sa.Column('score', sa.Float(), nullable=False),
        sa.Column('p_value', sa.Float(), nullable=False),
        sa.Column('hands', sa.Integer(), nullable=False),
        sa.Column('evidence', sa.JSON(), nullable=False),
        sa.Column('detail', sa.JSON(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(op.f('ix_integrity_flags_key'), 'integrity_flags', ['key'], unique=False)
    op.create_index(op.f('ix_integrity_flags_status'), 'integrity_flags', ['status'], unique=False)
    op.create_table(
        'account_states',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('warnings', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('player_id'),
    )
    op.create_table(
        'audit_log',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('operator_id', sa.Integer(), nullable=False),
        sa.Column('operator', sa.String(length=64), nullable=False),
        sa.Column('action', sa.String(length=32), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('target', sa.String(length=255), nullable=True),
        sa.Column('reason', sa.Text(), nullable=False),
        sa.Column('detail', sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(['operator_id'], ['players.id']),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(op.f('ix_audit_log_player_id'), 'audit_log', ['player_id'], unique=False)
    if op.get_bind().dialect.name == 'postgresql':
        op.execute(_PG_FUNCTION)
        op.execute('CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log '
                   'FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()')
    else:
        for verb in ('UPDATE', 'DELETE'):
            op.execute(f"CREATE TRIGGER audit_log_no_{verb.lower()} BEFORE {verb} ON audit_log "
                       "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only (R-OPER-4)'); END")


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.execute('DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log')
        op.execute('DROP FUNCTION IF EXISTS audit_log_append_only()')
    op.drop_index(op.f('ix_audit_log_player_id'), table_name='audit_log')
    op.drop_table('audit_log')
    op.drop_table('account_states')
    op.drop_index(op.f('ix_integrity_flags_status'), table_name='integrity_flags')
    op.drop_index(op.f('ix_integrity_flags_key'), table_name='integrity_flags')
    op.drop_table('integrity_flags')
