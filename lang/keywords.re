// The keywords, once for lang/lexer.re's two automata (the lexer's tokens
// and lytL_is_name): each rule runs KEYWORD(token), which each defines.
"fn" { KEYWORD(TK_FN); }
"return" { KEYWORD(TK_RETURN); }
"print" { KEYWORD(TK_PRINT); }
"show" { KEYWORD(TK_SHOW); }
"import" { KEYWORD(TK_IMPORT); }
"if" { KEYWORD(TK_IF); }
"then" { KEYWORD(TK_THEN); }
"else" { KEYWORD(TK_ELSE); }
"and" { KEYWORD(TK_AND); }
"or" { KEYWORD(TK_OR); }
"not" { KEYWORD(TK_NOT); }
"true" { KEYWORD(TK_TRUE); }
"false" { KEYWORD(TK_FALSE); }
"nil" { KEYWORD(TK_NIL); }
"for" { KEYWORD(TK_FOR); }
"while" { KEYWORD(TK_WHILE); }
"break" { KEYWORD(TK_BREAK); }
"continue" { KEYWORD(TK_CONTINUE); }
