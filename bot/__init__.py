"""Troika Table's application: settings, table service, storage, ratings, rendering."""
