"""Teaching: notebook 08's explorer and notebook 11's judge-yourself rounds."""
