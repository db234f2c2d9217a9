"""The API's JSON parser: DRF's, refusing (400) what it would let through as a server error."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, which also refuses JSON nested deeper than Python's recursion limit and
    strings holding a lone surrogate (``"\\ud800"``: no UTF-8 text, the database cannot store
    it), both with a 400."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except RecursionError:
            raise ParseError(_("JSON parse error - nested too deeply.")) from None
        except UnicodeEncodeError:
            raise ParseError(_("JSON parse error - a string holds a lone surrogate.")) from None
        return data
