# pipefy.bash: bash completion for pipefy (installed as
# share/bash-completion/completions/pipefy). Options, their values (the variants from
# `pipefy --list-variants`), and CUDA files (.cu, .cuh) or folders where a path goes.

_pipefy()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local opts="-o -i -q -R -n -j -p -I -D -U -MF -MT --assume-filename= --variant= --stages= --launches=
		--arch= --block-size= --ptxas --report --report= --report-file= --export-fixes= --rules=
		--cuda-path= --no-cache --remarks --dry-run --Werror --output-replacements-xml
		--output-replacements-json --diff --lines= --offset= --length= --cursor= --style=
		--fallback-style= --sort-includes --jobs= --help --version --list-variants"
	COMPREPLY=()
	case $prev in
	-o | -MF) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	-p | -I) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	-j | -MT | -D | -U) return ;;
	esac
	case $cur in
	--variant=*)
		local variants
		variants=$("${COMP_WORDS[0]}" --list-variants 2>/dev/null | cut -f1)
		COMPREPLY=($(compgen -P --variant= -W "auto ${variants:-cp.async ldg tma bulk ws ws-cp.async}" -- "${cur#*=}")) ;;
	--launches=*) COMPREPLY=($(compgen -P --launches= -W "auto overlap early keep queue" -- "${cur#*=}")) ;;
	--report=*) COMPREPLY=($(compgen -P --report= -W "text yaml json html" -- "${cur#*=}")) ;;
	--arch=*)
		COMPREPLY=($(compgen -P --arch= -W "sm_70 sm_72 sm_75 sm_80 sm_86 sm_87 sm_89 sm_90 sm_90a sm_100 sm_100a
			sm_101 sm_103 sm_110 sm_120 sm_121" -- "${cur#*=}")) ;;
	--report-file=* | --export-fixes=* | --assume-filename=*)
		COMPREPLY=($(compgen -P "${cur%%=*}=" -f -- "${cur#*=}")) ;;
	--rules=* | --cuda-path=*) COMPREPLY=($(compgen -P "${cur%%=*}=" -d -- "${cur#*=}")) ;;
	-*) COMPREPLY=($(compgen -W "$opts" -- "$cur")) ;;
	*) COMPREPLY=($(compgen -f -X '!*.@(cu|cuh)' -- "$cur") $(compgen -d -- "$cur")) ;;
	esac
	# an option that takes a value after '=' gets no space after it
	[[ ${#COMPREPLY[@]} = 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
}
complete -F _pipefy pipefy
