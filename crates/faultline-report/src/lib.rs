//! Renderers of diagnoses: text, JSON, SARIF, HTML
