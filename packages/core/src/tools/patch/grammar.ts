/**
 * The apply_patch format as a Lark grammar: the freeform definition sent with the tool, so that
 * a model behind a wire API that constrains output by grammar (OpenAI's `custom` tools) can only
 * write patches this grammar accepts. `parse.ts` accepts exactly the same texts (a test runs both
 * over a corpus and, where Python's `lark` is installed, over generated mutants too).
 *
 * Choices that differ from other readers of the format, each so that parser and grammar agree:
 * an added file may be empty; an update needs at least one hunk line unless it only moves the
 * file; "*** End of File" closes the last hunk of an update; a carriage return is never part of a
 * patch (no terminal accepts one), and nothing may follow "*** End Patch" but one newline.
 */
export const APPLY_PATCH_GRAMMAR = String.raw`// apply_patch, as kodo reads it: file operations between the two markers.
start: begin_patch operation+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

operation: add_file | delete_file | update_file

// A new file: each line of its content follows a "+".
add_file: "*** Add File: " PATH LF added_line*
added_line: "+" TEXT? LF

delete_file: "*** Delete File: " PATH LF

// Changes to a file, a new name for it, or both.
update_file: "*** Update File: " PATH LF move_to
           | "*** Update File: " PATH LF move_to? changes
move_to: "*** Move to: " PATH LF

// The first hunk may leave out its "@@" line; every later hunk starts with one or more.
changes: (hunk_line+ | hunk) hunk* end_of_file?
hunk: anchor+ hunk_line+
anchor: "@@" (" " TEXT?)? LF
hunk_line: (" " | "-" | "+") TEXT? LF
end_of_file: "*** End of File" LF

PATH: /[^ \t\r\n][^\r\n]*/
TEXT: /[^\r\n]+/
%import common.LF
`;
