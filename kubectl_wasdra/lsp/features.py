"""Code actions, hover and completion, registered on the server: thin handlers over lsp/actions.py and lsp/fields.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from kubectl_wasdra.lsp.diagnostics import path_of, to_diagnostic

if TYPE_CHECKING:
    from kubectl_wasdra.lsp.actions import Edit
    from kubectl_wasdra.lsp.server import WasdraServer

_KINDS = {"quickfix": types.CodeActionKind.QuickFix, "source.fixAll": types.CodeActionKind.SourceFixAll,
          "refactor.rewrite": types.CodeActionKind.RefactorRewrite}


def register(server: WasdraServer) -> None:
    """Register the editing features on `server`."""
    _code_actions(server)
    _fields(server)


def _code_actions(server: WasdraServer) -> None:
    options = types.CodeActionOptions(code_action_kinds=list(_KINDS.values()))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, options)
    def code_action(ls: WasdraServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        from kubectl_wasdra.lsp.actions import conversions, finding_fixes, fix_all

        if ls.projects is None:
            return None
        ls.flush()   # findings of the latest text, even when the change that came just before is not checked yet
        uri = params.text_document.uri
        path = path_of(uri)
        project = ls.project(path)
        document = ls.workspace.get_text_document(uri)
        start = ls.workspace.position_codec.position_from_client_units(document.lines, params.range.start)
        end = ls.workspace.position_codec.position_from_client_units(document.lines, params.range.end)
        findings = project.findings.get(path, [])
        touched = [f for f in findings if start.line + 1 <= f.line <= end.line + 1]
        options = project.settings.options
        release, runtime_config = options.releases[-1], options.runtime_config
        edits = finding_fixes(document.source, path, touched, release, runtime_config)
        everything = fix_all(document.source, path, findings, release, runtime_config)
        edits += [everything] if everything is not None else []
        edits += conversions(document.source, start.line + 1, runtime_config)
        wanted = params.context.only
        return [_action(ls, uri, document.lines, edit) for edit in edits
                if not wanted or any(_KINDS[edit.kind].value.startswith(kind.value) for kind in wanted)]


def _action(ls: WasdraServer, uri: str, lines: list[str], edit: Edit) -> types.CodeAction:
    whole = types.Range(types.Position(0, 0), types.Position(len(lines), 0))
    diagnostics = [to_diagnostic(f, ls.lines_of, ls.to_client) for f in edit.findings] if edit.kind == "quickfix" else None
    return types.CodeAction(
        title=edit.title, kind=_KINDS[edit.kind], diagnostics=diagnostics, is_preferred=edit.safe and edit.kind == "quickfix",
        edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(range=whole, new_text=edit.text)]}))


def _fields(server: WasdraServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: WasdraServer, params: types.HoverParams) -> types.Hover | None:
        from kubectl_wasdra.lsp.fields import describe_field

        if ls.projects is None:
            return None
        document = ls.workspace.get_text_document(params.text_document.uri)
        position = ls.workspace.position_codec.position_from_client_units(document.lines, params.position)
        project = ls.project(path_of(params.text_document.uri))
        text = describe_field(list(document.lines), position.line, position.character, project.settings.options)
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text)) if text else None

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[":", " "]))
    def completion(ls: WasdraServer, params: types.CompletionParams) -> types.CompletionList | None:
        from kubectl_wasdra.lsp.fields import complete

        if ls.projects is None:
            return None
        document = ls.workspace.get_text_document(params.text_document.uri)
        position = ls.workspace.position_codec.position_from_client_units(document.lines, params.position)
        project = ls.project(path_of(params.text_document.uri))
        items = [types.CompletionItem(label=item.label, kind=types.CompletionItemKind.Field if item.is_field
                                      else types.CompletionItemKind.EnumMember, detail=item.detail,
                                      documentation=item.documentation or None, insert_text=item.insert)
                 for item in complete(list(document.lines), position.line, position.character, project.settings.options)]
        return types.CompletionList(is_incomplete=False, items=items)
