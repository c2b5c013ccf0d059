"""`bwdoctor tokens create|list|revoke`: probe tokens in the database the service uses."""

from __future__ import annotations

import click

from bwdoctor.cli.common import db_session, fail, plain_errors


@click.group()
def tokens() -> None:
    """Probe tokens: create (printed once), list, revoke."""


@tokens.command("create")
@click.argument("name")
@click.option("--node", "node_id", default=None, help="Bind the token to this node id: it may write no other node.")
@click.option("--cluster", default=None, help="Bind the token to this cluster: it may write only that cluster's nodes.")
def tokens_create(name: str, node_id: str | None, cluster: str | None) -> None:
    """Issue a probe token; the token is the last line of output (store it now: it is kept hashed).

    Without --node or --cluster the token may write any node's reports (fine for a small setup);
    bound, a leaked token cannot overwrite the rest of the fleet (403).
    """
    from bwdoctor.tokens.service import TokenError, create_token

    if node_id and cluster:
        fail("give --node or --cluster, not both", 2)
    try:
        with plain_errors(), db_session() as session:
            token = create_token(name, db_session=session, node_id=node_id, cluster=cluster)
    except TokenError as exc:
        fail(str(exc), 2)
    bound = f" (node {node_id})" if node_id else f" (cluster {cluster})" if cluster else ""
    click.echo(f"token {name!r}{bound} created; it is shown only once. Probes send it as AGENT_PROBE_TOKEN:")
    click.echo(token)


@tokens.command("list")
def tokens_list() -> None:
    """Every token with its state (the secrets themselves cannot be shown)."""
    from bwdoctor.tokens.service import list_tokens

    with plain_errors(), db_session() as session:
        rows = list_tokens(db_session=session)
    if not rows:
        click.echo("no tokens; create one with: bwdoctor tokens create NAME")
    for row in rows:
        state = "active" if row.active else f"revoked {row.revoked_at:%Y-%m-%d %H:%M:%S}"
        click.echo(f"{row.name}\tcreated {row.created_at:%Y-%m-%d %H:%M:%S}\t{state}\t{row.scope}")


@tokens.command("revoke")
@click.argument("name")
def tokens_revoke(name: str) -> None:
    """Revoke a token: probes using it get 401 from then on."""
    from bwdoctor.tokens.service import TokenError, revoke_token

    try:
        with plain_errors(), db_session() as session:
            changed = revoke_token(name, db_session=session)
    except TokenError as exc:
        fail(str(exc), 2)
    click.echo(f"token {name!r} revoked" if changed else f"token {name!r} was already revoked")
