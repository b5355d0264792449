// The token rules, once for lang/lexer.re's two automata over a script
// (lytL_lex, which makes whole tokens, and lytL_probe, which only tells
// their types): each action is a macro that each defines. `start` is
// where the token begins.
digit = [0-9];
ident = [a-zA-Z_][a-zA-Z0-9_]*;

"\x00" { LONG(end_of_input); }
[ \t\r]+ { continue; }
"#" [^\n\x00]* { LONG(hash); }
"tensor<" [0-9] | "!ttg.memdesc<" { LONG(attr_at); }
"_" digit+ ("{}")? | ("cute::")? ("Int" | "C") "<" digit+ ">{}" { LONG(static_int); }
("cute::")? ("LayoutLeft" | "GenColMajor" | "LayoutRight" | "GenRowMajor") "{}" { LONG(major_tag); }
("cute::")? ("Layout" | "Swizzle" | "ComposedLayout") "<" { LONG(cute_type); }
"Sw<" digit+ "," digit+ "," digit+ ">" { LONG(printed_swizzle); }
"\n" { NEWLINE; }
digit+ | "0" [xX] [0-9a-fA-F]+ | "0" [bB] [01]+ { INTEGER; }
digit+ ident { LONG(bad_number); }
"\"" ([^"\\\n\x00] | "\\" [nt\\"])* "\"" { LONG(string_literal); }
"\"" ([^"\\\n\x00] | "\\" [nt\\"])* "\\" [^nt\\"\n\x00] { LONG(bad_escape); }
"\"" ([^"\\\n\x00] | "\\" [nt\\"])* { LONG(unterminated_string); }
"_" { TOKEN(TK_UNDER); }
// keywords before ident: a longer name still matches ident
!include "keywords.re";
ident { NAME; }
"(" { OPEN(TK_LPAREN); }
")" { CLOSE(TK_RPAREN); }
"[" { OPEN(TK_LBRACKET); }
"]" { CLOSE(TK_RBRACKET); }
"{" { TOKEN(TK_LBRACE); }
"}" { TOKEN(TK_RBRACE); }
"," { TOKEN(TK_COMMA); }
"." { TOKEN(TK_DOT); }
":" { TOKEN(TK_COLON); }
";" { TOKEN(TK_SEMI); }
"==" { TOKEN(TK_EQ); }
"!=" { TOKEN(TK_NE); }
"<=" { TOKEN(TK_LE); }
">=" { TOKEN(TK_GE); }
"<" { TOKEN(TK_LT); }
">" { TOKEN(TK_GT); }
"=" { TOKEN(TK_ASSIGN); }
"->" { TOKEN(TK_ARROW); }
"@" { TOKEN(TK_AT); }
"+" { TOKEN(TK_PLUS); }
"-" { TOKEN(TK_MINUS); }
"*" { TOKEN(TK_STAR); }
"/" { TOKEN(TK_SLASH); }
"%" { TOKEN(TK_PERCENT); }
"<<" { TOKEN(TK_SHL); }
">>" { TOKEN(TK_SHR); }
"^" { TOKEN(TK_CARET); }
"&" { TOKEN(TK_AMP); }
"|" { TOKEN(TK_PIPE); }
"~" { TOKEN(TK_TILDE); }
[^] { LONG(bad_byte); }
