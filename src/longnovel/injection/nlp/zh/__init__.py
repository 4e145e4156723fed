"""Chinese words (jieba), person names from the text's statistics and entities."""
