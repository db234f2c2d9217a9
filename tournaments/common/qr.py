"""QR codes of links, drawn on the server as inline SVG (segno): no request leaves the site."""

from __future__ import annotations

import segno


def qr_svg(link: str, *, scale: int = 3) -> str:
    """An inline ``<svg>`` QR code of ``link`` (sized by CSS through its viewBox)."""
    return str(segno.make(link, error="m").svg_inline(scale=scale, border=2, omitsize=True))
