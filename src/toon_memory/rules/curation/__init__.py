"""Curation: keep a memory clean over months (consolidate, reflect, promote, health).

Invariant: every module here is pure (entries in, plans and findings out);
applying a plan is ``Memory``'s job, always as soft removals. Importing this
package imports only its small modules and the search tokenizer.
"""

from toon_memory.rules.curation.compress import check_summary, compress_prompt
from toon_memory.rules.curation.consolidate import (
    MODES,
    check_min_quality,
    identical_groups,
    near_duplicate_pairs,
    plan_consolidation,
)
from toon_memory.rules.curation.health import Finding, health_findings, health_score
from toon_memory.rules.curation.observations import (
    MergedObservation,
    known_entry,
    merge_observations,
    observation_draft,
)
from toon_memory.rules.curation.plans import (
    FORGET,
    SUPERSEDE,
    ConsolidationPlan,
    KeepUpdate,
    Removal,
)
from toon_memory.rules.curation.reflect import (
    Attention,
    PromotePlan,
    Reflection,
    plan_promotion,
    reflect,
)
from toon_memory.rules.curation.similarity import jaccard, similar_pairs, term_set
from toon_memory.rules.curation.versions import plan_versions, version_mentions

__all__ = [
    "FORGET",
    "MODES",
    "SUPERSEDE",
    "Attention",
    "ConsolidationPlan",
    "Finding",
    "KeepUpdate",
    "MergedObservation",
    "PromotePlan",
    "Reflection",
    "Removal",
    "check_min_quality",
    "check_summary",
    "compress_prompt",
    "health_findings",
    "health_score",
    "identical_groups",
    "jaccard",
    "known_entry",
    "merge_observations",
    "near_duplicate_pairs",
    "observation_draft",
    "plan_consolidation",
    "plan_promotion",
    "plan_versions",
    "reflect",
    "similar_pairs",
    "term_set",
    "version_mentions",
]
