"""The tournament service: what the bot's tournament handlers and deadline handlers call.

Every call is one transaction, takes ``now`` (UTC, from the scheduler's clock) where time matters,
and raises ``RuleError`` with a stable code for every user-caused problem (the bot translates the
code; nothing is changed when it raises).  The pure rules live in engine/tournament: the engine
``Tournament`` state is kept as JSON on the tournament row (``state_json``), loaded, changed and
saved back inside one transaction.  Entry ids seen by the engine are ``str(TournamentEntry.id)``;
players are ``str(user id)``.

The modules, one job each: ``setup`` (creating and changing a tournament, the TOML file), ``times``,
``roles`` (roles and the audit log), ``registration``, ``draw``, ``state`` (the engine state on the
row), ``schedule``, ``lateness`` (check-in and forfeits), ``results``, ``conduct``, ``tables``
(substitutes, more time), ``follow`` (confirmations and live dashboards of the organiser's chat),
``lookup`` (reading rows), ``common`` (the in-transaction helpers the modules share: errors, rows, roles,
the audit log), ``swiss`` (withdrawals between Swiss rounds, ending the rounds), ``ratings`` (players' ratings replayed
from the stored results; seeding by rating).  Callers use this package's names: ``from storage import tournaments as ts``.
"""

from storage.tournaments.conduct import (
    add_conduct,
    reverse_conduct,
)
from storage.tournaments.control import (
    Edited,
    cancel,
    edit_time,
    move_table,
    reschedule,
    swap,
    update_from_spec,
)
from storage.tournaments.draw import (
    freeze,
    hold_draw,
)
from storage.tournaments.follow import (
    CONFIRM_MINUTES,
    ask_confirmation,
    dashboards,
    follow_dashboard,
    take_confirmation,
    unfollow_dashboard,
)
from storage.tournaments.lateness import (
    Lateness,
    check_in,
    decide_lateness,
    table_deadline,
    table_of_player,
    undo_lateness,
)
from storage.tournaments.lookup import (
    OPEN_STATUSES,
    active_table_of_ref,
    all_tournaments,
    checkins,
    draft_of,
    engine_entry,
    entries,
    entry_of_user,
    find_user,
    get_match,
    get_match_by_id,
    get_tournament,
    match_players,
    matches,
    player_label,
    rule_options,
    set_match_fields,
    settings_of,
    table_groups,
    tournament_of_group,
    tournaments_of_user,
    user_names,
)
from storage.tournaments.public import (
    public_view,
    set_public_page,
)
from storage.tournaments.ratings import (
    game_of,
    player_ratings,
)
from storage.tournaments.registration import (
    Withdrawn,
    accept_invite,
    accept_replacement,
    check_registration_open,
    close_registration,
    create_invite,
    form_team,
    get_invite,
    offer_replacement,
    register_pair,
    withdraw,
)
from storage.tournaments.results import (
    Recorded,
    confirm_result,
    correct_result,
    forfeit,
    record_result,
)
from storage.tournaments.roles import (
    ROLES,
    audit,
    audit_log,
    grant,
    require,
    revoke,
    role_members,
    roles_of,
)
from storage.tournaments.schedule import (
    mark_started,
    match_minutes,
    schedule_ready,
)
from storage.tournaments.setup import (
    SPEC_KEYS,
    Built,
    add_table_group,
    build_setup,
    create_tournament,
    link_group,
    set_status,
    spec_from_mapping,
    spec_from_toml,
    spec_to_toml,
    update_setup,
)
from storage.tournaments.state import (
    engine_state,
    load_engine,
    published_draw,
)
from storage.tournaments.swiss import (
    SwissEnded,
    end_swiss,
    swiss_withdraw,
)
from storage.tournaments.tables import Substituted, extend_lateness, substitute
from storage.tournaments.times import (
    DEFAULT_TZ,
    check_time_order,
    local_text,
    parse_local_time,
    zone,
)

__all__ = [
    "CONFIRM_MINUTES",
    "ask_confirmation",
    "dashboards",
    "follow_dashboard",
    "take_confirmation",
    "unfollow_dashboard",
    "match_minutes",
    "Edited",
    "cancel",
    "edit_time",
    "move_table",
    "reschedule",
    "swap",
    "update_from_spec",
    "player_label",
    "extend_lateness",
    "substitute",
    "Substituted",
    "active_table_of_ref",
    "Lateness",
    "table_deadline",
    "table_of_player",
    "Built",
    "DEFAULT_TZ",
    "OPEN_STATUSES",
    "ROLES",
    "Recorded",
    "SPEC_KEYS",
    "accept_invite",
    "add_conduct",
    "add_table_group",
    "all_tournaments",
    "audit",
    "audit_log",
    "build_setup",
    "check_in",
    "check_registration_open",
    "check_time_order",
    "checkins",
    "close_registration",
    "confirm_result",
    "correct_result",
    "create_invite",
    "create_tournament",
    "decide_lateness",
    "draft_of",
    "engine_entry",
    "engine_state",
    "entries",
    "entry_of_user",
    "find_user",
    "forfeit",
    "form_team",
    "freeze",
    "get_invite",
    "get_match",
    "get_match_by_id",
    "get_tournament",
    "grant",
    "hold_draw",
    "link_group",
    "load_engine",
    "local_text",
    "mark_started",
    "match_players",
    "matches",
    "parse_local_time",
    "published_draw",
    "record_result",
    "register_pair",
    "Withdrawn",
    "accept_replacement",
    "offer_replacement",
    "require",
    "reverse_conduct",
    "revoke",
    "role_members",
    "roles_of",
    "rule_options",
    "schedule_ready",
    "set_match_fields",
    "set_status",
    "settings_of",
    "spec_from_mapping",
    "spec_from_toml",
    "spec_to_toml",
    "table_groups",
    "tournament_of_group",
    "tournaments_of_user",
    "undo_lateness",
    "update_setup",
    "user_names",
    "withdraw",
    "SwissEnded",
    "game_of",
    "public_view",
    "set_public_page",
    "player_ratings",
    "end_swiss",
    "swiss_withdraw",
    "zone",
]
