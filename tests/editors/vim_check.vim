" What ALE shows of sourcecheck-ls in a real Vim, run under tmux after the user's vimrc (which
" sources editors/vim/sourcecheck.vim as the README says), with the session file open.
" It waits for ALE's diagnostics, runs :ALEHover, puts the cursor on the boundary-ambiguous
" diagnostic and says so (stage "code-action"); the test then types :ALECodeAction and picks
" 1 at ALE's prompt. Once the diagnostic is gone it writes the file, reports stage "done" and
" quits. Input (environment): SOURCECHECK_FILE, SOURCECHECK_RESULT (where to write the JSON),
" SOURCECHECK_HOVER ("line,column", both from 0), SOURCECHECK_WAIT_MS.

let s:wait = str2nr(empty($SOURCECHECK_WAIT_MS) ? '15000' : $SOURCECHECK_WAIT_MS) / 1000.0
let s:out = {'stage': 'started', 'vim': v:versionlong}
let s:state = 'attach'
let s:since = reltime()
let s:buf = bufnr($SOURCECHECK_FILE)
let g:ale_hover_to_preview = 1  " show hovers in the preview window, where this reads them

function! s:Write(stage) abort
  let s:out.stage = a:stage
  call writefile([json_encode(s:out)], $SOURCECHECK_RESULT . '.tmp')
  call rename($SOURCECHECK_RESULT . '.tmp', $SOURCECHECK_RESULT)
endfunction

function! s:Late() abort
  return reltimefloat(reltime(s:since)) > s:wait
endfunction

function! s:Next(state) abort
  let s:state = a:state
  let s:since = reltime()
endfunction

function! s:Finish() abort
  call timer_stopall()
  call s:Write('done')
  qall!
endfunction

function! s:Diagnostics() abort
  let l:info = get(g:ale_buffer_info, s:buf, {})
  return filter(copy(get(l:info, 'loclist', [])), {_, d -> d.linter_name is# 'sourcecheck'})
endfunction

function! s:Ambiguous() abort
  return filter(s:Diagnostics(), {_, d -> get(d, 'code', '') is# 'boundary-ambiguous'})
endfunction

function! s:PreviewLines() abort
  for l:win in getwininfo()
    if getwinvar(l:win.winid, '&previewwindow')
      return getbufline(l:win.bufnr, 1, '$')
    endif
  endfor
  return []
endfunction

function! s:Step(timer) abort
  try
    call s:StepOnce()
  catch
    let s:out.error = v:exception . ' at ' . v:throwpoint
    call s:Finish()
  endtry
endfunction

function! s:StepOnce() abort
  let s:out.filetype = getbufvar(s:buf, '&filetype')
  if s:state is# 'attach'
    if !empty(s:Diagnostics())
      let s:out.diagnostics = map(s:Diagnostics(),
      \ {_, d -> {'code': get(d, 'code', ''), 'line': d.lnum - 1, 'column': d.col - 1, 'message': d.text}})
      let [l:line, l:column] = split($SOURCECHECK_HOVER, ',')
      call cursor(str2nr(l:line) + 1, str2nr(l:column) + 1)
      ALEHover
      call s:Next('hover')
    elseif s:Late()
      call s:Finish()
    endif
  elseif s:state is# 'hover'
    let l:lines = s:PreviewLines()
    if !empty(l:lines) || s:Late()
      let s:out.hover = join(l:lines, "\n")
      let l:ambiguous = s:Ambiguous()
      if empty(l:ambiguous)
        call s:Finish()
        return
      endif
      call cursor(l:ambiguous[0].lnum, l:ambiguous[0].col + 1)
      call s:Next('fix')
      call s:Write('code-action')
    endif
  elseif s:state is# 'fix'
    if &modified && empty(s:Ambiguous())
      let s:out.fixed = v:true
      write
      let s:out.text = join(getline(1, '$'), "\n")
      call s:Finish()
    elseif s:Late()
      let s:out.text = join(getline(1, '$'), "\n")
      call s:Finish()
    endif
  endif
endfunction

call timer_start(100, function('s:Step'), {'repeat': -1})
