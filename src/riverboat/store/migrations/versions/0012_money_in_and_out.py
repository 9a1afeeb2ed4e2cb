"""money in and out (issue #30): deposits, withdrawals, operator adjustments, player protections and their history

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06 20:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def _ts(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        'deposits',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('amount', sa.BigInteger(), nullable=False),
        sa.Column('method', sa.String(length=32), nullable=False),
        sa.Column('reference', sa.String(length=128), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('staff_id', sa.Integer(), nullable=True),
        sa.Column('txn_id', sa.Integer(), nullable=True),
        sa.Column('balance_after', sa.BigInteger(), nullable=True),
        _ts('created_at'),
        _ts('credited_at', True),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.ForeignKeyConstraint(['staff_id'], ['players.id']),
        sa.ForeignKeyConstraint(['txn_id'], ['ledger_txns.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('method', 'reference', name='uq_deposit_ref'),
    )
    op.create_index(op.f('ix_deposits_player_id'), 'deposits', ['player_id'], unique=False)
    op.create_table(
        'withdrawals',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('amount', sa.BigInteger(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('request_key', sa.String(length=255), nullable=False),
        _ts('requested_at'),
        _ts('decided_at', True),
        sa.Column('staff_id', sa.Integer(), nullable=True),
        sa.Column('payout_reference', sa.String(length=128), nullable=True),
        sa.Column('reason', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.ForeignKeyConstraint(['staff_id'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('request_key'),
    )
    op.create_index(op.f('ix_withdrawals_player_id'), 'withdrawals', ['player_id'], unique=False)
    op.create_index(op.f('ix_withdrawals_status'), 'withdrawals', ['status'], unique=False)
    op.create_table(
        'adjustments',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('amount', sa.BigInteger(), nullable=False),
        sa.Column('category', sa.String(length=16), nullable=False),
        sa.Column('reason', sa.Text(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('requested_by', sa.Integer(), nullable=False),
        sa.Column('decided_by', sa.Integer(), nullable=True),
        sa.Column('txn_id', sa.Integer(), nullable=True),
        _ts('created_at'),
        _ts('decided_at', True),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.ForeignKeyConstraint(['requested_by'], ['players.id']),
        sa.ForeignKeyConstraint(['decided_by'], ['players.id']),
        sa.ForeignKeyConstraint(['txn_id'], ['ledger_txns.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(op.f('ix_adjustments_player_id'), 'adjustments', ['player_id'], unique=False)
    op.create_index(op.f('ix_adjustments_status'), 'adjustments', ['status'], unique=False)
    op.create_table(
        'player_protections',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('verified', sa.Boolean(), nullable=False),
        sa.Column('reality_check_minutes', sa.Integer(), nullable=True),
        sa.Column('block_kind', sa.String(length=16), nullable=True),
        _ts('blocked_from', True),
        _ts('blocked_until', True),
        _ts('updated_at'),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('player_id'),
    )
    op.create_table(
        'deposit_limits',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('period', sa.String(length=8), nullable=False),
        sa.Column('amount', sa.BigInteger(), nullable=True),
        sa.Column('pending_amount', sa.BigInteger(), nullable=True),
        sa.Column('pending_clear', sa.Boolean(), nullable=False),
        _ts('pending_from', True),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.PrimaryKeyConstraint('player_id', 'currency', 'period'),
    )
    op.create_table(
        'protection_history',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('actor_id', sa.Integer(), nullable=True),
        _ts('at'),
        sa.Column('what', sa.String(length=32), nullable=False),
        sa.Column('detail', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id']),
        sa.ForeignKeyConstraint(['actor_id'], ['players.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(op.f('ix_protection_history_player_id'), 'protection_history', ['player_id'], unique=False)


def downgrade() -> None:
    for name in ('protection_history', 'deposit_limits', 'player_protections', 'adjustments', 'withdrawals',
                 'deposits'):
        op.drop_table(name)
