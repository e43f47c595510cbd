"""Strings that live in declarations rather than in ``_()`` calls, registered with
``catalogs.SOURCES`` (each source yields ``(context or None, text)``)."""

from __future__ import annotations
