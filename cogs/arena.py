"""The ``/arena`` commands and the component entry point: thin adapters over :mod:`bot.gm`.

Every handler asks the game master and answers within Discord's 3 seconds: by its
result alone when that comes within :data:`cogs.deferral.QUICK_ANSWER`, else deferred
meanwhile and then edited or followed up. Interaction errors (expired token, unknown
message, rate limits) are logged and swallowed: a click never crashes the bot.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.engine.registry import all_games
from bot.gm import Actor, Reply, Upload, ids
from bot.gm.lobby import UPLOAD_MAX
from bot.gm.msg import Msg
from bot.gm.posting import answering
from bot.gm.present import ai_levels
from bot.gm.retired import OpenPrompt
from bot.i18n import lang_code, t
from cogs.components import component_request
from cogs.deferral import Deferral, answer_first
from cogs.hooks import Hook
from cogs.render import editing, sending

if TYPE_CHECKING:
    from bot.app import ArenaBot

log = logging.getLogger(__name__)


BOOLS = ["True", "False"]


def L(text: str, key: str) -> app_commands.locale_str:
    return _(text, key=key)


def actor_of(interaction: discord.Interaction) -> Actor:
    perms = interaction.permissions
    return Actor(
        user_id=interaction.user.id,
        name=interaction.user.display_name,
        lang=lang_code(str(interaction.locale)),
        manager=bool(perms.manage_guild) if interaction.guild_id else False,
    )


def _unlink(interaction: discord.Interaction) -> None:
    """Drop the response helper discord.py caches on a handled interaction: it points
    back at the interaction, a cycle that kept every click's interaction, message and
    member alive until a garbage collection, and young collections are the loop's worst
    stalls under load (issue 16 item 5). Nothing reads an interaction's response after
    its handling (no other listener takes components, and discord.py's command tree does
    not once a command returned; ``Interaction.response`` would build a new one)."""
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")


def _public(interaction: discord.Interaction) -> bool:
    """The clicked message is seen by everyone in the channel (not ephemeral, not a DM)."""
    message = interaction.message
    if interaction.guild_id is None or message is None:
        return False
    return not message.flags.ephemeral


def _clicked_edit(update: Msg | None) -> contextlib.AbstractContextManager[dict[str, Any]]:
    """The arguments of an edit of the clicked message to ``update``; None: its buttons
    taken off (``components: []`` only)."""
    return editing(update) if update is not None else contextlib.nullcontext({"view": None})


def guild_lang(interaction: discord.Interaction) -> str | None:
    return str(interaction.guild_locale) if interaction.guild_locale else None


def game_choices() -> list[app_commands.Choice[str]]:
    """The registered games as fixed choices (never free text), named in both languages.

    The translator resolves ``game:<id>`` keys from the registry's names.
    """
    return [
        app_commands.Choice(name=_(info.names.en[:100], key=f"game:{info.id}"), value=info.id)
        for info in all_games()
    ][:25]


def mode_table() -> dict[str, tuple[str, str]]:
    """Each (game, mode) pair by the value of its choice: ``<game>:<mode>`` -> (game, mode).

    Two games may share a mode id (a "team-spirit" in two games): each pair is its
    own choice, and a value is only ever looked up here, never taken apart.
    """
    return {f"{info.id}:{m.id}": (info.id, m.id) for info in all_games() for m in info.modes}


def mode_choices() -> list[app_commands.Choice[str]]:
    """Every game's modes as fixed choices, named "Game — Mode" in both languages.

    The translator names them from the ``game``/``mode`` ids the string carries;
    the game master refuses a mode of another game than the chosen one.
    """
    out: list[app_commands.Choice[str]] = []
    for value, (game_id, mode_id) in mode_table().items():
        info = next(g for g in all_games() if g.id == game_id)
        name = f"{info.names.en} — {info.mode(mode_id).names.en}"[:100]
        label = _(name, key="mode-choice", game=game_id, mode=mode_id)
        out.append(app_commands.Choice(name=label, value=value))
    return out[:25]


def level_choices() -> list[app_commands.Choice[str]]:
    """The AI levels the games declare, as fixed choices (named by the first game declaring one)."""
    seen: set[str] = set()
    out: list[app_commands.Choice[str]] = []
    for info in all_games():
        for lv in ai_levels(info):
            if lv.id not in seen:
                seen.add(lv.id)
                label = _(lv.names.en[:100], key="level-choice", game=info.id, level=lv.id)
                out.append(app_commands.Choice(name=label, value=lv.id))
    return out[:25]


def _refused_choice(interaction: discord.Interaction, value: object, lang: str) -> str:
    """The polite answer to a value outside the offered choices, named for its parameter."""
    text = str(value)[:50]
    data: dict[str, Any] = dict(interaction.data or {})
    options: list[dict[str, Any]] = data.get("options") or []
    sub = options[0].get("options", []) if options and options[0].get("type") == 1 else options
    param = next((str(o.get("name")) for o in sub if str(o.get("value")) == str(value)), "")
    if param == "mode":
        modes = ", ".join(f"`{v}`" for v in mode_table())
        return t(lang, "err.unknown_mode", mode=text, modes=modes)
    if param == "ai_level":
        levels = ", ".join(f"`{c.value}`" for c in level_choices())
        return t(lang, "err.unknown_level", level=text, levels=levels or "—")
    if param == "game":
        games = ", ".join(f"`{g.id}`" for g in all_games())
        return t(lang, "err.unknown_game", game=text, games=games)
    command = interaction.command
    choices: list[str] = []
    if isinstance(command, app_commands.Command):
        parameter = next((p for p in command.parameters if p.display_name == param), None)
        if parameter is not None:
            choices = [f"`{c.value}`" for c in parameter.choices]
            param = parameter.display_name
    return t(
        lang,
        "err.unknown_choice",
        value=text,
        param=param or "?",
        choices=", ".join(choices) or "—",
    )


async def read_upload(attachment: discord.Attachment) -> Upload:
    """Download an attached file unless it is over the limit (the game master refuses those)."""
    data: bytes | None = None
    if attachment.size <= UPLOAD_MAX:
        try:
            data = await attachment.read()
        except (discord.HTTPException, discord.NotFound) as exc:
            log.warning("could not download attachment %s: %s", attachment.id, exc)
    return Upload(filename=attachment.filename, size=attachment.size, data=data)


class Arena(commands.Cog):
    arena = app_commands.Group(
        name=L("arena", "arena"),
        description=L("Play board games refereed by the bot", "arena.desc"),
        guild_only=True,
    )

    def __init__(self, bot: ArenaBot) -> None:
        self.bot = bot

        self._tree_hooks: tuple[Any, Any] = (None, None)

    @property
    def gm(self) -> Any:
        return self.bot.gm

    # --- delivery ------------------------------------------------------------------------
    async def deliver(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        held: OpenPrompt | None = None,
        *,
        acknowledged: bool = True,
        shown: Msg | None = None,
    ) -> None:
        """``held``: the clicked private prompt, no longer watched while its click was
        handled; watched again if the reply leaves it as it was (issue 11.8).
        ``acknowledged`` False: a click not answered yet, whose first call answers it (the
        clicked message edited by the answer itself, else a deferral). ``shown``: what
        the click's answer already put in place of the clicked message (not edited again
        if the reply's update is the same)."""
        if reply.update is not None and reply.update.secret and _public(interaction):
            # A seat's own board never replaces a public message: it goes privately instead.
            reply.private.insert(0, reply.update)
            reply.update = None
        clicked = interaction.message
        private_click = clicked is not None and clicked.flags.ephemeral
        hook = Hook.of(interaction)
        if clicked is None:
            reply.strip = False  # a command has no clicked message to take buttons off
        if not acknowledged and clicked is None:
            # A command handled quickly: its first message answers it.
            if not await self._answer_command(interaction, reply, hook):
                return
            acknowledged = True
        if not acknowledged and reply.update is None and not reply.strip:
            if reply.private and self._token_kept_elsewhere(interaction):
                # A public message whose edits have another click's token: this one's
                # answer may be the first private message itself (one call, not two).
                answered = await self._answer_with(interaction, hook, reply.private[0])
                if answered is False:
                    return  # expired: no answer and no follow-up can be sent
                if answered:
                    reply.private.pop(0)
                    acknowledged = True
        if not acknowledged and reply.update is None and not reply.strip:
            # Nothing takes the clicked message's place: a deferral answers the click.
            if not await self._defer_click(interaction):
                return
            acknowledged = True
        if reply.update is not None and reply.update == shown:
            if clicked is not None and private_click:
                await self._shown(interaction, clicked.id, reply.update, hook, None)
        elif reply.update is not None or reply.strip:
            if acknowledged:
                try:
                    with _clicked_edit(reply.update) as kwargs:
                        await hook.edit(self.bot, None, **kwargs)
                    updated: bool | None = True
                except discord.HTTPException as exc:
                    log.warning("could not update the clicked message: %s %s", exc.status, exc.code)
                    updated = None
            else:
                updated = await self._answer_by_update(interaction, hook, reply.update)
                if updated is False:
                    return  # expired: no answer and no follow-up can be sent
            if updated and reply.update is not None and clicked is not None and private_click:
                await self._shown(interaction, clicked.id, reply.update, hook, None)
        elif held is not None and clicked is not None:
            self.gm.prompt_kept(clicked.id, held)
        for msg in reply.private:
            try:
                with sending(msg) as kwargs:
                    sent = await hook.send(self.bot, ephemeral=True, **kwargs)
            except discord.HTTPException as exc:
                log.warning("could not send a private follow-up: %s %s", exc.status, exc.code)
                return
            await self._shown(interaction, sent, msg, hook, sent)

    async def _answer_command(
        self, interaction: discord.Interaction, reply: Reply, hook: Hook
    ) -> bool:
        """A command handled within :data:`~cogs.deferral.QUICK_ANSWER`, answered by its
        first message (a command's answers are private), in the one call where a
        "thinking" deferral and a follow-up would be two; the message is taken out of
        ``reply``. A reply with no message, or a message Discord refuses, gets the deferral
        instead. False: the command expired, nothing can answer it."""
        first = reply.update
        if first is None and reply.private:
            first = reply.private[0]
        if first is None:
            return await self._defer(interaction)
        # The reply's update is the original response, unwatched as its edit after a
        # deferral was; a private message is watched like any other.
        update = first is reply.update
        answered = await self._answer_with(
            interaction, hook, first, watch=not update, what="a command"
        )
        if answered is None:
            return await self._defer(interaction)
        if answered and update:
            reply.update = None
        elif answered:
            reply.private.pop(0)
        return answered

    async def _answer_with(
        self,
        interaction: discord.Interaction,
        hook: Hook,
        msg: Msg,
        *,
        watch: bool = True,
        what: str = "privately",
    ) -> bool | None:
        """Answer ``interaction`` by ``msg``, a new private message, in one call: True if so
        (then watched as a prompt, with ``watch``); None if Discord refused it for its
        content; False if the interaction expired (nothing can answer it)."""
        try:
            with sending(msg) as kwargs:
                sent = await hook.answer_privately(self.bot, interaction, **kwargs)
        except discord.HTTPException as exc:
            log.warning("could not answer %s: %s %s", what, exc.status, exc.code)
            return False if exc.status == 404 else None
        if watch:
            await self._shown(interaction, sent, msg, hook, None)
        return True

    async def _shown(
        self,
        interaction: discord.Interaction,
        message_id: int,
        msg: Msg,
        hook: Hook,
        followup_id: int | None,
    ) -> None:
        """Tell the game master a private prompt is on screen, with how to edit it (the
        interaction's webhook: its original response when ``followup_id`` is None) once
        its decision no longer waits for it. Only the webhook's two values are kept, not
        the interaction. Best effort: delivery never fails for it."""
        bot = self.bot

        async def edit(new: Msg) -> None:
            await answer_first()  # an edit made while another click is handled
            with editing(new) as kwargs:
                await hook.edit(bot, followup_id, **kwargs)

        lang = lang_code(str(interaction.locale))
        try:
            await self.gm.prompt_shown(message_id, interaction.user.id, lang, msg, edit)
        except Exception:
            log.exception("watching prompt %s", message_id)

    def _token_kept_elsewhere(self, interaction: discord.Interaction) -> bool:
        """A public click whose message's edits already have another click's token: this
        click need not lend its own (its original response may be a new message)."""
        clicked = interaction.message
        if not _public(interaction) or clicked is None:
            return False
        has_token = getattr(self.gm.publisher, "has_token", None)
        return has_token is not None and bool(has_token(clicked.id))

    def _clicked(self, interaction: discord.Interaction) -> None:
        """A click answered without a new message: its original response is the clicked
        message, which its token may edit from now on if it is public (cogs/publisher.py)."""
        if _public(interaction):
            clicked = getattr(self.gm.publisher, "clicked", None)
            if clicked is not None:
                clicked(interaction)

    async def _answer_by_update(
        self, interaction: discord.Interaction, hook: Hook, update: Msg | None
    ) -> bool | None:
        """Answer the click by the clicked message edited to ``update`` (None: its buttons
        taken off), one call: True if so. Refused for its content, a deferral answers the
        click instead, so its player never sees "This interaction failed" (None); expired,
        nothing can answer it (False)."""
        try:
            with _clicked_edit(update) as kwargs:
                await hook.update_clicked(self.bot, interaction, **kwargs)
        except discord.HTTPException as exc:
            log.warning("could not update the clicked message: %s %s", exc.status, exc.code)
            if exc.status == 404 or not await self._defer_click(interaction):
                return False
            return None
        self._clicked(interaction)
        return True

    async def _defer_click(self, interaction: discord.Interaction) -> bool:
        """A click whose handling takes longer than :data:`~cogs.deferral.QUICK_ANSWER`,
        deferred while it runs (then its token may edit the clicked public message)."""
        if not await self._defer(interaction, component=True):
            return False
        self._clicked(interaction)
        return True

    async def _defer(self, interaction: discord.Interaction, *, component: bool = False) -> bool:
        try:
            if component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as exc:
            # Expired (10062) or already answered: nothing useful can be sent back.
            log.warning(
                "could not defer interaction %s: %s %s", interaction.id, exc.status, exc.code
            )
            return False
        return True

    async def _refuse(self, interaction: discord.Interaction, key: str) -> None:
        """Answer at once, privately, in the user's language; nothing else happens."""
        text = t(lang_code(str(interaction.locale)), key)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning(
                "could not refuse interaction %s: %s %s", interaction.id, exc.status, exc.code
            )

    async def _not_one_of(
        self, interaction: discord.Interaction, param: str, value: object, choices: list[str]
    ) -> None:
        """A value of the wrong type (an outdated command definition): refused, nothing done."""
        lang = lang_code(str(interaction.locale))
        text = t(
            lang,
            "err.unknown_choice",
            value=str(value)[:50],
            param=param,
            choices=", ".join(f"`{c}`" for c in choices) or "—",
        )
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not refuse a value: %s %s", exc.status, exc.code)

    async def _run(
        self,
        interaction: discord.Interaction,
        coro: Any,
        *,
        component: bool = False,
        guild: bool = True,
        held: OpenPrompt | None = None,
    ) -> None:
        """Defer, run the game master's coroutine, deliver its reply.

        ``guild``: the command needs a server (a match lives in a server channel);
        sent from a DM it is refused and nothing is opened there. Once answered, the
        interaction is unlinked from its response (:func:`_unlink`).
        """
        try:
            await self._answer(interaction, coro, component=component, guild=guild, held=held)
        finally:
            _unlink(interaction)

    async def _answer(
        self,
        interaction: discord.Interaction,
        coro: Any,
        *,
        component: bool,
        guild: bool,
        held: OpenPrompt | None,
    ) -> None:
        if guild and interaction.guild_id is None:
            coro.close()
            await self._refuse(interaction, "err.guild_only")
            return
        deferral: Deferral
        if component:
            # A click is answered by its result when that comes within QUICK_ANSWER (one
            # call: the clicked message edited by the answer), else deferred meanwhile; a
            # private prompt's new face may come earlier than the rest (a pick committed).
            deferral = Deferral(
                lambda: self._defer_click(interaction),
                None
                if _public(interaction)
                else lambda m: self._answer_by_update(interaction, Hook.of(interaction), m),
            )
        else:
            # A command likewise: answered by its first private message, else deferred
            # ("thinking") meanwhile.
            deferral = Deferral(lambda: self._defer(interaction))
        # The clicker's own answer first; what the channel gets follows it (issue 16.4).
        with answering(interaction.user.id, deferral.early) as mids, deferral.armed():
            try:
                reply = await coro
            except Exception:
                log.exception("handling interaction %s", interaction.id)
                reply = Reply.say(t(lang_code(str(interaction.locale)), "err.generic"))
        acknowledged = await deferral.settle()
        if acknowledged is not False:  # False: Discord refused the deferral (expired)
            await self.deliver(
                interaction, reply, held, acknowledged=acknowledged is True, shown=deferral.shown
            )
        if mids:
            try:
                await self.gm.deliver_later(mids)
            except Exception:
                log.exception("delivering after interaction %s", interaction.id)

    async def cog_load(self) -> None:
        tree = self.bot.tree
        self._tree_hooks = (tree.interaction_check, tree.on_error)
        tree.interaction_check = self._tree_check  # type: ignore[method-assign]
        tree.on_error = self._tree_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        tree = self.bot.tree
        tree.interaction_check, tree.on_error = self._tree_hooks  # type: ignore[method-assign]

    async def _tree_check(self, interaction: discord.Interaction) -> bool:
        """No command of ours autocompletes: such a request (an outdated or modified
        client) gets an empty list instead of an error."""
        if interaction.type is discord.InteractionType.autocomplete:
            try:
                await interaction.response.autocomplete([])
            except discord.HTTPException as exc:
                log.warning("could not answer an autocomplete: %s %s", exc.status, exc.code)
            return False
        return True

    async def _tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Errors no command handled: an unknown or outdated command is answered politely."""
        command = interaction.command
        if command is not None and command._has_any_error_handlers():
            return  # :meth:`cog_app_command_error` answered
        log.warning("interaction %s: %r", interaction.id, error)
        if interaction.type is discord.InteractionType.autocomplete:
            return
        known = isinstance(
            error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
        )
        await self._refuse(interaction, "err.unknown_command" if known else "err.generic")

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Anything a command could not even start (a bad argument): a polite private line."""
        log.warning(
            "command %s failed: %r", interaction.command and interaction.command.name, error
        )
        lang = lang_code(str(interaction.locale))
        if isinstance(error, app_commands.TransformerError):
            # A value outside the offered choices (an outdated client): name the choices.
            text = _refused_choice(interaction, error.value, lang)
        elif isinstance(error, app_commands.CommandSignatureMismatch):
            text = t(lang, "err.unknown_command")
        else:
            text = t(lang, "err.generic")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not report a command error: %s %s", exc.status, exc.code)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every button, select and modal: nothing else in the bot handles them, so each
        is answered here, whatever a modified client put in it."""
        if interaction.type is discord.InteractionType.modal_submit:
            await self._refuse(interaction, "err.not_offered")  # we never open a modal
            return
        if interaction.type is not discord.InteractionType.component:
            return
        request = component_request(interaction)
        if request is None:
            await self._refuse(interaction, "err.not_offered")
            return
        c, values = request
        actor = actor_of(interaction)
        if isinstance(c, ids.LobbyButton) and c.action == "rematch":
            coro = self.gm.rematch(c.mid, actor)
        elif isinstance(c, ids.LobbyButton):
            value = values[0] if values else None
            coro = self.gm.lobby_action(c.mid, c.action, actor, value)
        elif isinstance(c, ids.Resume):
            coro = self.gm.resume(c.mid, c.ver, actor)
        elif isinstance(c, ids.Hand):
            coro = self.gm.hand(c.mid, actor)
        else:
            coro = self.gm.click(c, actor, values)
        clicked = interaction.message
        held = self.gm.prompt_clicked(clicked.id) if clicked is not None else None
        await self._run(interaction, coro, component=True, guild=False, held=held)

    # --- commands ------------------------------------------------------------------------
    @arena.command(
        name=L("start", "start"),
        description=L("Open a lobby for a new match in this channel", "start.desc"),
    )
    @app_commands.rename(
        game=L("game", "game"),
        mode=L("mode", "mode"),
        ai_level=L("ai_level", "ai_level"),
        file=L("file", "file"),
    )
    @app_commands.describe(
        game=L("Which game", "game.desc"),
        mode=L("Which mode of the game", "mode.desc"),
        ai_level=L("Strength of the AI players", "ai_level.desc"),
        file=L("Your own data file, for a game that takes one (64 KiB at most)", "file.desc"),
    )
    @app_commands.choices(game=game_choices())
    @app_commands.choices(mode=mode_choices(), ai_level=level_choices())
    async def start(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        mode: app_commands.Choice[str] | None = None,
        ai_level: app_commands.Choice[str] | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        await self._run(
            interaction,
            self._start(
                interaction,
                game.value,
                mode.value if mode is not None else None,
                ai_level.value if ai_level is not None else None,
                file,
            ),
        )

    async def _start(
        self,
        interaction: discord.Interaction,
        game: str,
        mode: str | None,
        ai_level: str | None,
        file: discord.Attachment | None,
    ) -> Reply:
        """Downloading the file may take longer than 3 s: the command is deferred meanwhile
        (:class:`cogs.deferral.Deferral`).

        ``mode`` is a choice's value: the (game, mode) pair it stands for is looked up.
        """
        upload = await read_upload(file) if file is not None else None
        pair = mode_table().get(mode) if mode is not None else None
        return await self.gm.open_lobby(
            actor_of(interaction),
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            guild_locale=guild_lang(interaction),
            game_id=game,
            mode=pair[1] if pair else mode,
            mode_of=pair[0] if pair else None,
            ai_level=ai_level,
            upload=upload,
        )

    @arena.command(
        name=L("status", "status"),
        description=L("Show the board and whose decision is awaited", "status.desc"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        await self._run(
            interaction, self.gm.status(interaction.channel_id or 0, actor_of(interaction))
        )

    @arena.command(
        name=L("hand", "hand"), description=L("Send me my private options again", "hand.desc")
    )
    async def hand(self, interaction: discord.Interaction) -> None:
        await self._run(
            interaction, self.gm.hand_here(interaction.channel_id or 0, actor_of(interaction))
        )

    @arena.command(
        name=L("rules", "rules"),
        description=L("A summary of a game's rules, just for me", "rules.desc"),
    )
    @app_commands.rename(game=L("game", "game"))
    @app_commands.describe(game=L("Which game", "game.desc"))
    @app_commands.choices(game=game_choices())
    async def rules(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        game_id = game.value if game is not None else None
        await self._run(
            interaction,
            self.gm.rules(game_id, interaction.channel_id or 0, actor_of(interaction)),
            guild=False,
        )

    @arena.command(
        name=L("abandon", "abandon"),
        description=L("Abandon the match going on here (host or Manage Server)", "abandon.desc"),
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        await self._run(
            interaction, self.gm.cancel_here(interaction.channel_id or 0, actor_of(interaction))
        )

    @arena.command(
        name=L("cancel", "cancel"),
        description=L("Cancel the lobby or match here (host or Manage Server)", "cancel.desc"),
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._run(
            interaction, self.gm.cancel_here(interaction.channel_id or 0, actor_of(interaction))
        )

    @arena.command(
        name=L("history", "history"),
        description=L("Recent matches in this channel", "history.desc"),
    )
    async def history(self, interaction: discord.Interaction) -> None:
        await self._run(
            interaction,
            self.gm.history(
                interaction.guild_id or 0, interaction.channel_id or 0, actor_of(interaction)
            ),
        )

    @arena.command(
        name=L("play", "play"), description=L("Type a move in the game's notation", "play.desc")
    )
    @app_commands.rename(text=L("text", "text"))
    @app_commands.describe(text=L("The move, e.g. a1-a3", "text.desc"))
    async def play(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 100]
    ) -> None:
        if not isinstance(text, str):
            return await self._not_one_of(interaction, "text", text, [])
        await self._run(
            interaction, self.gm.play_text(interaction.channel_id or 0, actor_of(interaction), text)
        )

    @arena.command(
        name=L("settings", "settings"),
        description=L("Server settings (Manage Server)", "settings.desc"),
    )
    @app_commands.rename(threads=L("threads", "threads"), language=L("language", "language"))
    @app_commands.describe(
        threads=L("Play each match in its own thread", "threads.desc"),
        language=L("Language of public posts on this server", "language.desc"),
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(name=L("automatic", "auto"), value="auto"),
            app_commands.Choice(name=L("French", "french"), value="fr"),
            app_commands.Choice(name=L("English", "english"), value="en"),
        ]
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        threads: bool | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        if threads is not None and not isinstance(threads, bool):
            return await self._not_one_of(interaction, "threads", threads, BOOLS)
        await self._run(
            interaction,
            self.gm.set_guild(
                interaction.guild_id or 0,
                actor_of(interaction),
                threads=threads,
                locale=language.value if language else None,
            ),
        )

    @arena.command(
        name=L("dm", "dm"), description=L("Also receive my prompts by private message", "dm.desc")
    )
    @app_commands.rename(enabled=L("enabled", "enabled"))
    @app_commands.describe(enabled=L("On or off", "enabled.desc"))
    async def dm(self, interaction: discord.Interaction, enabled: bool) -> None:
        if not isinstance(enabled, bool):
            return await self._not_one_of(interaction, "enabled", enabled, BOOLS)
        await self._run(interaction, self.gm.set_dm(actor_of(interaction), enabled), guild=False)

    @arena.command(
        name=L("autopilot", "autopilot"),
        description=L("Hand my seat to the AI, or take it back", "autopilot.desc"),
    )
    @app_commands.rename(on=L("on", "on"))
    @app_commands.describe(on=L("True: the AI plays for me; False: I play again", "on.desc"))
    async def autopilot(self, interaction: discord.Interaction, on: bool) -> None:
        if not isinstance(on, bool):
            return await self._not_one_of(interaction, "on", on, BOOLS)
        await self._run(
            interaction, self.gm.autopilot(interaction.channel_id or 0, actor_of(interaction), on)
        )


async def setup(bot: ArenaBot) -> None:
    await bot.add_cog(Arena(bot))
