"""The fast paths, registered: each a flag of :class:`FastPaths`, on by default, with a careful
twin that gives the same result, taken when the flag is off (``Analysis(text, fast=...)``).

``tests/core/test_fast_paths.py`` checks every flag off against all on, over the fixtures and
generated sessions, broken and clean, opened whole and edited; docs/architecture.md ("Fast
paths") lists each with its twin, the test that proves them equal and what it gains.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True, slots=True)
class FastPaths:
    """Which fast paths an analysis takes (all, by default)."""

    lazy_items: bool = True
    """The items of ``documents`` and ``annotations`` decoded by the C decoder and expanded when
    a position inside is needed; careful: every item parsed by the parser, with positions."""
    located_in_items: bool = True
    """A value inside a decoded item located by walking its text with the C decoder (one
    finding's range, a content's string); careful: the item expanded and walked."""
    clean_annotations: bool = True
    """An annotation with no finding checked in one go (``AnnotationRules.clean_annotation``, on
    ``valid_refs``); careful: key by key, each ref resolved and every rule asked."""
    valid_refs: bool = True
    """A ref that resolves with good metadata checked in one go (``AnnotationRules.valid_ref``);
    careful: ``AnnotationRules.ref``, every rule asked."""
    reuse: bool = True
    """An edited text's check takes the results of the annotations the edit did not touch
    from the previous check (the memo layer, core/memo.py); careful: every annotation checked again."""
    incremental_parse: bool = True
    """An edit parsed again only between the nearest untouched items (core/incremental.py);
    careful: the whole text parsed again."""

    def without(self, name: str) -> FastPaths:
        """These fast paths but ``name``."""
        return replace(self, **{name: False})


NAMES: tuple[str, ...] = tuple(field.name for field in fields(FastPaths))
ALL = FastPaths()
NONE = FastPaths(**dict.fromkeys(NAMES, False))
