"""The rules of Diplomacy: a pure, fast, DATC-compliant adjudicator."""
