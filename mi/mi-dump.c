/*
 * mi-dump.c - the canonical text dump of a record, used by the test corpus
 * (tests/mi/data/NAME.expected) and for debugging. One header line per
 * record, then one line per tree node, indented by two spaces per level:
 *
 *   result token=12 class=done
 *     bkpt = {
 *       number = "1"
 *       locations = [
 *         {
 *           number = "1.1"
 *         }
 *       ]
 *     }
 *   console "Breakpoint 1 at 0x1139: file t.c, line 5.\n"
 *   prompt
 *   invalid error=SYNTAX offset=3 "expected a value" line="..."
 *
 * Strings are escaped JSON-style, unlike GDB's octal style, so the dump
 * shows what the unescaping produced.
 */
#include "mi-int.h"

static void mi__dump_str(FILE *out, const char *s, size_t len)
{
    size_t i;

    fputc('"', out);
    for (i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        switch (ch) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (ch < 0x20 || ch > 0x7e)
                fprintf(out, "\\x%02x", ch);
            else
                fputc(ch, out);
        }
    }
    fputc('"', out);
}

static void mi__dump_value(FILE *out, const struct mi_value *v, int depth)
{
    const struct mi_value *ch;

    fprintf(out, "%*s", 2 * depth, "");
    if (v->name)
        fprintf(out, "%s = ", v->name);
    if (v->kind == MI_VALUE_STRING) {
        mi__dump_str(out, v->str, v->len);
        fputc('\n', out);
        return;
    }
    if (!v->first) {
        fputs(v->kind == MI_VALUE_TUPLE ? "{}\n" : "[]\n", out);
        return;
    }
    fputs(v->kind == MI_VALUE_TUPLE ? "{\n" : "[\n", out);
    for (ch = v->first; ch; ch = ch->next)
        mi__dump_value(out, ch, depth + 1);
    fprintf(out, "%*s%s\n", 2 * depth, "", v->kind == MI_VALUE_TUPLE ? "}" : "]");
}

const char *mi_record_kind_name(enum mi_record_kind kind)
{
    switch (kind) {
    case MI_RECORD_RESULT: return "result";
    case MI_RECORD_EXEC: return "exec";
    case MI_RECORD_STATUS: return "status";
    case MI_RECORD_NOTIFY: return "notify";
    case MI_RECORD_CONSOLE: return "console";
    case MI_RECORD_TARGET: return "target";
    case MI_RECORD_LOG: return "log";
    case MI_RECORD_PROMPT: return "prompt";
    case MI_RECORD_INVALID: return "invalid";
    case MI_RECORD_STDERR: return "stderr";
    }
    return "?";
}

int mi_record_dump(const struct mi_record *rec, FILE *out)
{
    const struct mi_value *ch;

    fputs(mi_record_kind_name(rec->kind), out);
    switch (rec->kind) {
    case MI_RECORD_RESULT:
    case MI_RECORD_EXEC:
    case MI_RECORD_STATUS:
    case MI_RECORD_NOTIFY:
        if (rec->has_token)
            fprintf(out, " token=%llu", (unsigned long long)rec->token);
        fprintf(out, " class=%s\n", rec->klass);
        for (ch = rec->results->first; ch; ch = ch->next)
            mi__dump_value(out, ch, 1);
        break;
    case MI_RECORD_CONSOLE:
    case MI_RECORD_TARGET:
    case MI_RECORD_LOG:
    case MI_RECORD_STDERR:
        fputc(' ', out);
        mi__dump_str(out, rec->text, rec->text_len);
        fputc('\n', out);
        break;
    case MI_RECORD_PROMPT:
        fputc('\n', out);
        break;
    case MI_RECORD_INVALID:
        fprintf(out, " error=%s offset=%zu \"%s\" line=", mi_err_name(rec->error),
                rec->error_offset, rec->error_msg ? rec->error_msg : "");
        mi__dump_str(out, rec->line, rec->line_len);
        fputc('\n', out);
        break;
    }
    return ferror(out) ? MI_EIO : 0;
}
