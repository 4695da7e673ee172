"""Everything versioned: releases, schemas, feature gates, field->gate map, API availability."""
