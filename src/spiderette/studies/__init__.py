"""Studies: strategies played on many deals, their results, and the statistics to compare them."""
