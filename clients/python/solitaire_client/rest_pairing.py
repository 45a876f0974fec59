"""The quick pairing calls of :class:`~solitaire_client.rest.ServiceClient`: ask to race
now in a mode, poll the seek, cancel it. Each needs the client's player token."""

from __future__ import annotations

from service.protocol.pairing import PairingMode, SeekRequest, SeekResponse, SeekView

from .rest_base import RestBase


class PairingCalls(RestBase):
    """Quick pairing; a paired seek's race token is remembered for its race and game."""

    def _remember_seek(self, seek: SeekView) -> SeekView:
        race = seek.race
        if race is not None and race.player_token is not None:
            self._tokens[race.race_id] = race.player_token
            self._tokens[race.game_id] = race.player_token
        return seek

    async def seek_race(self, mode: PairingMode) -> SeekView:
        """Asks to race now in ``mode`` (``DS.D1N``...); poll :meth:`get_seek` until it
        is ``paired`` (each read keeps the seek alive)."""
        response = await self._request(
            "POST", "/pairing/seeks", body=SeekRequest(mode=mode), token=self.player_token
        )
        return self._remember_seek(self._parse(SeekResponse, response).seek)

    async def get_seek(self, seek_id: str) -> SeekView:
        response = await self._request("GET", f"/pairing/seeks/{seek_id}", token=self.player_token)
        return self._remember_seek(self._parse(SeekResponse, response).seek)

    async def cancel_seek(self, seek_id: str) -> SeekView:
        """Cancels the seek; one already paired stays paired (the answer says so)."""
        response = await self._request(
            "DELETE", f"/pairing/seeks/{seek_id}", token=self.player_token
        )
        return self._remember_seek(self._parse(SeekResponse, response).seek)
